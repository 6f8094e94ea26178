// The SDK (~150 ES modules) is imported with the first question, not when the app starts.
import type OpenAI from 'openai'
import type { APIError } from 'openai'
import type { Response, ResponseOutputItem, WebSearchTool } from 'openai/resources/responses/responses.js'
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

/**
 * OpenAI through the Responses API with the web_search tool. Citations are the `url_citation` annotations
 * of the `message` output's `output_text` parts; `web_search_call` items mean it searched, and their
 * `action.sources` (asked for with `include`) are what it retrieved.
 */
export function createOpenAiAdapter(settings: EngineSettings, options: AdapterOptions = {}): EngineAdapter {
  let client: OpenAI | undefined

  return {
    engine: 'openai',
    async ask(prompt: string, askOptions: AskOptions = {}): Promise<EngineAnswer> {
      const sdk = await import('openai')
      client ??= new sdk.default({
        apiKey: settings.apiKey,
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
        maxRetries: 0,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      })
      const location = approximateLocation(askOptions.geoState)
      const tool: WebSearchTool = { type: 'web_search', ...(location ? { user_location: { type: 'approximate', ...location } } : {}) }
      let response: Response
      try {
        response = await client.responses.create(
          { model: settings.model, input: prompt, tools: [tool], include: ['web_search_call.action.sources'] },
          askOptions.signal ? { signal: askOptions.signal } : undefined,
        )
      } catch (error) {
        throw toEngineError(error, askOptions.signal, sdk.APIError)
      }
      return readAnswer(response)
    },
  }
}

/** Reads the answer from a Responses API response. */
export function readAnswer(response: Response): EngineAnswer {
  if (!isResponse(response)) throw malformed('the response is not a Responses API response')
  if (response.status === 'failed' || response.error) {
    const reason = response.error ? `${response.error.code}: ${response.error.message}` : 'the response failed'
    throw new EngineError(`OpenAI: ${reason}`, { retryable: response.error?.code !== 'invalid_prompt' })
  }
  if (response.status === 'incomplete') {
    // A cut-off answer would under-count who is named; ask again rather than measure half an answer.
    throw new EngineError(`OpenAI: incomplete response (${response.incomplete_details?.reason ?? 'no reason given'})`, { retryable: true })
  }
  const cited = new SourceSet()
  const retrieved = new SourceSet()
  let searched = false
  const texts: string[] = []
  let refusal: string | undefined
  for (const item of response.output as ResponseOutputItem[]) {
    if (item.type === 'web_search_call') {
      searched = true
      const action = item.action as { type?: string; sources?: Array<{ url?: unknown }>; url?: unknown } | undefined
      if (action?.type === 'search') for (const source of action.sources ?? []) retrieved.add(pageUrl(source.url))
      if (action?.type === 'open_page') retrieved.add(pageUrl(action.url))
    }
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) {
        if (part.type === 'refusal') refusal = part.refusal
        if (part.type !== 'output_text' || typeof part.text !== 'string') continue
        texts.push(part.text)
        for (const annotation of part.annotations ?? []) {
          if (annotation.type === 'url_citation') cited.add(pageUrl(annotation.url), annotation.title)
        }
      }
    }
  }
  const answerText = texts.join('\n\n').trim()
  if (answerText === '') {
    throw new EngineError(refusal ? `OpenAI refused: ${refusal}` : 'OpenAI returned no answer text', { retryable: !refusal })
  }
  return {
    answer_text: answerText,
    citations: cited.list(),
    retrieved: retrieved.except(cited),
    model: response.model,
    searched,
    record: withoutDerivedFields(response),
  }
}

/**
 * The page's URL without the `utm_source=openai` marker OpenAI appends to the links it cites (its sources
 * list the same pages without it), so that a cited page is recognised among the retrieved ones.
 */
function pageUrl(url: unknown): unknown {
  if (typeof url !== 'string' || !url.includes('utm_source=openai')) return url
  try {
    const parsed = new URL(url)
    if (parsed.searchParams.get('utm_source') !== 'openai') return url
    parsed.searchParams.delete('utm_source')
    return parsed.toString()
  } catch {
    return url
  }
}

/** The response as the provider sent it: the SDK adds `output_text`, a convenience we do not record. */
function withoutDerivedFields(response: Response): unknown {
  const { output_text: _derived, ...rest } = response
  return asJson(rest)
}

function isResponse(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return typeof v.model === 'string' && Array.isArray(v.output) && v.output.every((i) => typeof i === 'object' && i !== null)
}

function malformed(detail: string): EngineError {
  return new EngineError(`malformed OpenAI response: ${detail}`, { retryable: true })
}

function toEngineError(error: unknown, signal: AbortSignal | undefined, apiError: typeof APIError): EngineError {
  if (error instanceof EngineError) return error
  if (isAbort(error, signal)) return new EngineError('request aborted', { retryable: true, cause: error })
  if (error instanceof apiError) {
    const status = typeof error.status === 'number' ? error.status : undefined
    // `error.error` is the body's `error` object; its message is the provider's own reason.
    const body = error.error as { message?: unknown } | undefined
    const reason = typeof body?.message === 'string' ? body.message : error.message
    return new EngineError(status ? `OpenAI ${status}: ${reason}` : `OpenAI: ${reason}`, {
      status,
      retryable: retryableStatus(status) && error.code !== 'insufficient_quota',
      retryAfterMs: retryAfterMs(error.headers),
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return malformed(message)
}
