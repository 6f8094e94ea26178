// The SDK (~250 ES modules) is imported with the first question, not when the app starts.
import type Anthropic from '@anthropic-ai/sdk'
import type { APIError } from '@anthropic-ai/sdk'
import type { ContentBlock, Message, MessageParam, WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages/messages.js'
import type { EngineSettings } from '../settings.js'
import {
  approximateLocation,
  asJson,
  DEFAULT_TIMEOUT_MS,
  EngineError,
  isAbort,
  retryableStatus,
  retryAfterMs,
  SourceSet,
  type AdapterOptions,
  type AskOptions,
  type EngineAdapter,
  type EngineAnswer,
} from './adapter.js'

/** Output bound for one answer; a buyer-style answer with sources fits well within it. */
const MAX_TOKENS = 4096
/** Searches Claude may run for one answer. */
const MAX_SEARCHES = 5
/** A long search turn may pause (stop_reason pause_turn); it is continued this many times at most. */
const MAX_CONTINUATIONS = 3

/**
 * Claude through the Anthropic Messages API with the web_search server tool. Citations are read from the
 * text blocks (`web_search_result_location`), retrieved sources from `web_search_tool_result` blocks, and
 * a `server_tool_use` block named web_search means it searched.
 */
export function createClaudeAdapter(settings: EngineSettings, options: AdapterOptions = {}): EngineAdapter {
  let client: Anthropic | undefined

  return {
    engine: 'claude',
    async ask(prompt: string, askOptions: AskOptions = {}): Promise<EngineAnswer> {
      const sdk = await import('@anthropic-ai/sdk')
      client ??= new sdk.default({
        apiKey: settings.apiKey,
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
        maxRetries: 0,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      })
      const location = approximateLocation(askOptions.geoState)
      const tool: WebSearchTool20250305 = {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: MAX_SEARCHES,
        ...(location ? { user_location: { type: 'approximate', ...location } } : {}),
      }
      const messages: MessageParam[] = [{ role: 'user', content: prompt }]
      const responses: Message[] = []
      try {
        for (let turn = 0; turn <= MAX_CONTINUATIONS; turn++) {
          const response = await client.messages.create(
            { model: settings.model, max_tokens: MAX_TOKENS, messages, tools: [tool] },
            askOptions.signal ? { signal: askOptions.signal } : undefined,
          )
          if (!isMessage(response)) throw malformed('the response is not a Messages API message')
          responses.push(response)
          if (response.stop_reason !== 'pause_turn') break
          // A paused turn is continued by sending it back as the assistant's turn, as the API documents.
          messages.push({ role: 'assistant', content: response.content as MessageParam['content'] })
        }
      } catch (error) {
        throw toEngineError(error, askOptions.signal, sdk.APIError)
      }
      return readAnswer(responses)
    },
  }
}

/** Reads the answer from one or more responses (continued pause_turn turns form one answer). */
export function readAnswer(responses: readonly Message[]): EngineAnswer {
  const last = responses[responses.length - 1]
  if (!last) throw malformed('no response')
  // A cut-off answer would under-count who is named; ask again rather than measure half an answer.
  if (last.stop_reason === 'max_tokens' || last.stop_reason === 'pause_turn') {
    throw new EngineError(`Claude's answer was cut off (stop_reason ${last.stop_reason})`, { retryable: true })
  }
  if (last.stop_reason === 'refusal') throw new EngineError('Claude refused to answer (stop_reason refusal)', { retryable: false })
  const blocks: ContentBlock[] = responses.flatMap((r) => r.content)
  const cited = new SourceSet()
  const retrieved = new SourceSet()
  let searched = false
  // The answer is the text after the last search: text before it is the model narrating its searches.
  let lastToolBlock = -1
  blocks.forEach((block, index) => {
    if (block.type === 'server_tool_use' && block.name === 'web_search') searched = true
    if (block.type === 'web_search_tool_result') {
      searched = true
      if (Array.isArray(block.content)) for (const result of block.content) retrieved.add(result.url, result.title)
    }
    if (block.type === 'server_tool_use' || block.type === 'web_search_tool_result') lastToolBlock = index
  })
  let answerBlocks = blocks.slice(lastToolBlock + 1).filter(isTextBlock)
  if (answerBlocks.every((b) => b.text.trim() === '')) answerBlocks = blocks.filter(isTextBlock)
  for (const block of answerBlocks) {
    for (const citation of block.citations ?? []) {
      if (citation.type === 'web_search_result_location') cited.add(citation.url, citation.title)
    }
  }
  // Claude splits its answer into text blocks around each citation: they are fragments of one text.
  const answerText = answerBlocks
    .map((b) => b.text)
    .join('')
    .trim()
  if (answerText === '') {
    throw new EngineError(`Claude returned no answer text (stop_reason ${last.stop_reason ?? 'none'})`, { retryable: true })
  }
  return {
    answer_text: answerText,
    citations: cited.list(),
    retrieved: retrieved.except(cited),
    model: last.model,
    searched,
    record: asJson(responses.length === 1 ? last : responses),
  }
}

function isTextBlock(block: ContentBlock): block is Extract<ContentBlock, { type: 'text' }> {
  return block.type === 'text' && typeof block.text === 'string'
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.model === 'string' &&
    Array.isArray(v.content) &&
    v.content.every((b) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string')
  )
}

function malformed(detail: string): EngineError {
  return new EngineError(`malformed Anthropic response: ${detail}`, { retryable: true })
}

function toEngineError(error: unknown, signal: AbortSignal | undefined, apiError: typeof APIError): EngineError {
  if (error instanceof EngineError) return error
  if (isAbort(error, signal)) return new EngineError('request aborted', { retryable: true, cause: error })
  if (error instanceof apiError) {
    const status = typeof error.status === 'number' ? error.status : undefined
    // apiMessage is the provider's own `error.message`; a connection failure has only the SDK's message.
    const reason = error.apiMessage ?? error.message
    return new EngineError(status ? `Anthropic ${status}: ${reason}` : `Anthropic: ${reason}`, {
      status,
      retryable: retryableStatus(status),
      retryAfterMs: retryAfterMs(error.headers),
      cause: error,
    })
  }
  // A body that is not JSON, or any other failure reading the response.
  const message = error instanceof Error ? error.message : String(error)
  return malformed(message)
}
