import type { AeoProcessorSettings } from '../settings.js'
import type { AdapterOptions, EngineAdapter } from './adapter.js'
import { createClaudeAdapter } from './claude.js'
import { createGeminiAdapter, type GeminiAdapterOptions } from './gemini.js'
import { createOpenAiAdapter } from './openai.js'

export { EngineError, type EngineAdapter, type EngineAnswer, type Source } from './adapter.js'

export interface EngineAdapterOptions extends AdapterOptions {
  readonly gemini?: GeminiAdapterOptions
}

/** One adapter per engine enabled in settings (an engine is enabled by its API key). */
export function createEngineAdapters(engines: AeoProcessorSettings['engines'], options: EngineAdapterOptions = {}): EngineAdapter[] {
  const { gemini, ...common } = options
  const adapters: EngineAdapter[] = []
  if (engines.claude) adapters.push(createClaudeAdapter(engines.claude, common))
  if (engines.openai) adapters.push(createOpenAiAdapter(engines.openai, common))
  if (engines.gemini) adapters.push(createGeminiAdapter(engines.gemini, { ...common, ...gemini }))
  return adapters
}
