// The SDK (~250 ES modules) is imported with the first completion, not when the app starts.
import type Anthropic from '@anthropic-ai/sdk'
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages.js'
import { toLanguageModelError } from './errors.js'
import { LanguageModelError, type LanguageModel } from './port.js'
import { DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS, type LanguageModelProviderSettings } from './settings.js'

/**
 * The language model through the Anthropic Messages API: `system` as the system prompt, `prompt` as the one
 * user turn; the answer is the text blocks joined. No SDK retries: the job decides what a failure means.
 */
export function createAnthropicLanguageModel(settings: LanguageModelProviderSettings, options: { timeoutMs?: number } = {}): LanguageModel {
  let client: Anthropic | undefined
  return {
    name: `anthropic:${settings.model}`,
    async complete(request) {
      const sdk = await import('@anthropic-ai/sdk')
      client ??= new sdk.default({
        apiKey: settings.apiKey,
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
        maxRetries: 0,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      })
      let message: Message
      try {
        message = await client.messages.create(
          {
            model: settings.model,
            max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
            system: request.system,
            messages: [{ role: 'user', content: request.prompt }],
          },
          request.signal ? { signal: request.signal } : undefined,
        )
      } catch (error) {
        throw toLanguageModelError('Anthropic', error, request.signal)
      }
      return readText(message)
    },
  }
}

/** The answer text of a finished message; a cut-off, refused or empty answer is an error, never half a page. */
export function readText(message: Message): string {
  if (!message || !Array.isArray(message.content))
    throw new LanguageModelError('Anthropic: the response is not a Messages API message', true)
  if (message.stop_reason === 'max_tokens')
    throw new LanguageModelError('Anthropic: the answer was cut off (stop_reason max_tokens)', false)
  if (message.stop_reason === 'refusal') throw new LanguageModelError('Anthropic: the model refused (stop_reason refusal)', false)
  const text = message.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('')
    .trim()
  if (text === '') throw new LanguageModelError(`Anthropic: no answer text (stop_reason ${message.stop_reason ?? 'none'})`, true)
  return text
}
