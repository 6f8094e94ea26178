// The SDK (~150 ES modules) is imported with the first completion, not when the app starts.
import type OpenAI from 'openai'
import type { Response } from 'openai/resources/responses/responses.js'
import { toLanguageModelError } from './errors.js'
import { LanguageModelError, type LanguageModel } from './port.js'
import { DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS, type LanguageModelProviderSettings } from './settings.js'

/**
 * The language model through the OpenAI Responses API: `system` as the instructions, `prompt` as the input;
 * the answer is the output_text parts of the message items joined. No SDK retries.
 */
export function createOpenAiLanguageModel(settings: LanguageModelProviderSettings, options: { timeoutMs?: number } = {}): LanguageModel {
  let client: OpenAI | undefined
  return {
    name: `openai:${settings.model}`,
    async complete(request) {
      const sdk = await import('openai')
      client ??= new sdk.default({
        apiKey: settings.apiKey,
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
        maxRetries: 0,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      })
      let response: Response
      try {
        response = await client.responses.create(
          {
            model: settings.model,
            instructions: request.system,
            input: request.prompt,
            max_output_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
          },
          request.signal ? { signal: request.signal } : undefined,
        )
      } catch (error) {
        throw toLanguageModelError('OpenAI', error, request.signal)
      }
      return readOutputText(response)
    },
  }
}

/** The answer text of a completed response; an incomplete, failed or empty one is an error. */
export function readOutputText(response: Response): string {
  if (!response || !Array.isArray(response.output))
    throw new LanguageModelError('OpenAI: the response is not a Responses API response', true)
  if (response.status === 'incomplete') {
    throw new LanguageModelError(`OpenAI: the answer is incomplete (${response.incomplete_details?.reason ?? 'unknown reason'})`, false)
  }
  if (response.status === 'failed')
    throw new LanguageModelError(`OpenAI: the response failed (${response.error?.message ?? 'no reason given'})`, true)
  const text = response.output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .flatMap((part) => (part.type === 'output_text' ? [part.text] : []))
    .join('')
    .trim()
  if (text === '') throw new LanguageModelError('OpenAI: no answer text', true)
  return text
}
