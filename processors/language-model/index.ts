import { createAnthropicLanguageModel } from './anthropic.js'
import { createOpenAiLanguageModel } from './openai.js'
import type { LanguageModel } from './port.js'
import type { LanguageModelSettings } from './settings.js'

/**
 * The language model jobs write with, from the settings (ops/config.ts picks the provider); null when none
 * is configured, and each kind then uses its deterministic built-in writer.
 */
export function createLanguageModel(settings: LanguageModelSettings, options: { timeoutMs?: number } = {}): LanguageModel | null {
  switch (settings.provider) {
    case 'anthropic':
      return createAnthropicLanguageModel(settings.settings, options)
    case 'openai':
      return createOpenAiLanguageModel(settings.settings, options)
    case 'builtin':
      return null
  }
}
