// The SDK is imported with the first question, not when the app starts.
import type { ApiError, GenerateContentResponse, GoogleGenAI, GroundingChunk } from '@google/genai'
import type { EngineSettings } from '../settings.js'
import {
  approximateLocation,
  asJson,
  DEFAULT_TIMEOUT_MS,
  EngineError,
  isAbort,
  retryableStatus,
  SourceSet,
  type AdapterOptions,
  type AskOptions,
  type EngineAdapter,
  type EngineAnswer,
} from './adapter.js'

/** Where Gemini's grounding chunks point: redirects to the real page, valid for a few days. */
export const GROUNDING_REDIRECT_PREFIXES = ['https://vertexaisearch.cloud.google.com/grounding-api-redirect/'] as const

export interface GeminiAdapterOptions extends AdapterOptions {
  /**
   * Grounding chunk URIs starting with one of these are redirects; each is resolved (one request, the
   * redirect not followed) to the page it points to, so that the source's domain is the real one. A
   * redirect that cannot be resolved becomes the site its chunk's title names (Gemini's titles are domains),
   * or is kept as it is when the title is not a host name. Empty: never resolve.
   */
  readonly redirectPrefixes?: readonly string[]
  /** Bound on resolving one redirect (default 5 s). */
  readonly redirectTimeoutMs?: number
}

/**
 * Gemini through generateContent with the googleSearch tool. Sources are
 * `groundingMetadata.groundingChunks[].web` (uri, title); a chunk that some `groundingSupports` entry points
 * at (groundingChunkIndices) is cited, the others were retrieved; `webSearchQueries` mean it searched.
 * The Gemini API takes no user location for search, so the run's geography is a system instruction.
 */
export function createGeminiAdapter(settings: EngineSettings, options: GeminiAdapterOptions = {}): EngineAdapter {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  let client: GoogleGenAI | undefined
  const prefixes = options.redirectPrefixes ?? GROUNDING_REDIRECT_PREFIXES
  const redirectTimeoutMs = options.redirectTimeoutMs ?? 5000

  return {
    engine: 'gemini',
    async ask(prompt: string, askOptions: AskOptions = {}): Promise<EngineAnswer> {
      const sdk = await import('@google/genai')
      client ??= new sdk.GoogleGenAI({
        vertexai: false,
        apiKey: settings.apiKey,
        // No retryOptions: the SDK then asks once (the runs queue retries).
        httpOptions: { timeout, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}) },
      })
      const location = approximateLocation(askOptions.geoState)
      let response: GenerateContentResponse
      try {
        response = await client.models.generateContent({
          model: settings.model,
          contents: prompt,
          config: {
            tools: [{ googleSearch: {} }],
            ...(location
              ? { systemInstruction: `The user is located in ${[location.region, location.country].filter(Boolean).join(', ')}.` }
              : {}),
            ...(askOptions.signal ? { abortSignal: askOptions.signal } : {}),
          },
        })
      } catch (error) {
        throw toEngineError(error, askOptions.signal, sdk.ApiError)
      }
      const answer = readAnswer(response, settings.model)
      if (prefixes.length === 0) return answer
      const resolve = (source: { url: string; title?: string }) => resolveRedirect(source, prefixes, redirectTimeoutMs, askOptions.signal)
      const [citations, retrieved] = await Promise.all([
        Promise.all(answer.citations.map(resolve)),
        Promise.all(answer.retrieved.map(resolve)),
      ])
      // Two redirects may lead to the same page: keep one of each, cited first.
      const cited = new SourceSet()
      for (const s of citations) cited.add(s.url, s.title)
      const seen = new SourceSet()
      for (const s of retrieved) seen.add(s.url, s.title)
      return { ...answer, citations: cited.list(), retrieved: seen.except(cited) }
    },
  }
}

/** Reads the answer from a generateContent response (the first candidate is the answer). */
export function readAnswer(response: GenerateContentResponse, requestedModel: string): EngineAnswer {
  if (typeof response !== 'object' || response === null) throw malformed('the response is not an object')
  const blocked = response.promptFeedback?.blockReason
  if (blocked) {
    throw new EngineError(
      `Gemini blocked the prompt: ${blocked}${response.promptFeedback?.blockReasonMessage ? ` (${response.promptFeedback.blockReasonMessage})` : ''}`,
      { retryable: false },
    )
  }
  const candidates = response.candidates
  if (!Array.isArray(candidates)) throw malformed('no candidates')
  const candidate = candidates[0]
  if (!candidate) throw new EngineError('Gemini returned no candidate', { retryable: true })
  const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : []
  // Thought parts are the model's reasoning, not its answer.
  const answerText = parts
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text)
    .join('')
    .trim()
  if (answerText === '') {
    throw new EngineError(`Gemini returned no answer text (finishReason ${candidate.finishReason ?? 'none'})`, { retryable: true })
  }
  if (candidate.finishReason === 'MAX_TOKENS') {
    // A cut-off answer would under-count who is named; ask again rather than measure half an answer.
    throw new EngineError("Gemini's answer was cut off (finishReason MAX_TOKENS)", { retryable: true })
  }
  const grounding = candidate.groundingMetadata
  const chunks: GroundingChunk[] = Array.isArray(grounding?.groundingChunks) ? grounding.groundingChunks : []
  const citedIndices = new Set<number>()
  for (const support of grounding?.groundingSupports ?? []) {
    for (const index of support.groundingChunkIndices ?? []) citedIndices.add(index)
  }
  const cited = new SourceSet()
  const retrieved = new SourceSet()
  chunks.forEach((chunk, index) => {
    const web = chunk.web
    if (!web?.uri) return
    const title = web.title ?? web.domain
    if (citedIndices.has(index)) cited.add(web.uri, title)
    else retrieved.add(web.uri, title)
  })
  const searched = (grounding?.webSearchQueries?.length ?? 0) > 0 || chunks.length > 0
  return {
    answer_text: answerText,
    citations: cited.list(),
    retrieved: retrieved.except(cited),
    model: typeof response.modelVersion === 'string' && response.modelVersion !== '' ? response.modelVersion : requestedModel,
    searched,
    record: recordOf(response),
  }
}

/** The response as the provider sent it, without the SDK's copy of the HTTP headers. */
function recordOf(response: GenerateContentResponse): unknown {
  const { sdkHttpResponse: _headers, ...rest } = response
  return asJson(rest)
}

/** The page a grounding redirect points to; the redirect itself when it is not one or cannot be resolved. */
async function resolveRedirect(
  source: { url: string; title?: string },
  prefixes: readonly string[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ url: string; title?: string }> {
  if (!prefixes.some((p) => source.url.startsWith(p))) return source
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]
  try {
    const response = await fetch(source.url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.any(signals) })
    await response.body?.cancel()
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      const resolved = new URL(location, source.url).toString()
      return source.title === undefined ? { url: resolved } : { url: resolved, title: source.title }
    }
  } catch {
    // Unresolvable (expired, refused, timed out): named by its title below.
  }
  return siteOfTitle(source)
}

/** A host name as Gemini writes it in a grounding chunk's title ("tsbpe.texas.gov"). */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i

/**
 * An unresolved redirect as the site its chunk's title names: Gemini puts the page's domain in the title, and
 * the redirect's own host (vertexaisearch.cloud.google.com) would otherwise be the source's domain in every
 * source table. The redirect itself expires within days and stays in the raw record. A title that is not a
 * host name (a page title) leaves the redirect as it is.
 */
function siteOfTitle(source: { url: string; title?: string }): { url: string; title?: string } {
  const title = source.title?.trim()
  return title && HOST_NAME.test(title) ? { url: `https://${title.toLowerCase()}/`, title } : source
}

function malformed(detail: string): EngineError {
  return new EngineError(`malformed Gemini response: ${detail}`, { retryable: true })
}

/** The SDK's ApiError carries the provider's JSON body as its message: read reason and RetryInfo from it. */
function toEngineError(error: unknown, signal: AbortSignal | undefined, apiError: typeof ApiError): EngineError {
  if (error instanceof EngineError) return error
  if (isAbort(error, signal)) return new EngineError('request aborted', { retryable: true, cause: error })
  if (error instanceof apiError) {
    const status = error.status
    const body = parseJson(error.message) as { error?: { message?: unknown; status?: unknown; details?: unknown } } | undefined
    const reason = typeof body?.error?.message === 'string' && body.error.message !== '' ? body.error.message : error.message
    const code = typeof body?.error?.status === 'string' ? ` (${body.error.status})` : ''
    return new EngineError(`Gemini ${status}: ${reason}${code}`, {
      status,
      retryable: retryableStatus(status),
      retryAfterMs: retryDelayMs(body?.error?.details),
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  // A fetch failure (connection refused, timeout) is a TypeError from undici: ask again later.
  if (error instanceof TypeError && /fetch failed/i.test(message))
    return new EngineError(`Gemini: ${message}`, { retryable: true, cause: error })
  return malformed(message)
}

/** google.rpc.RetryInfo's retryDelay ("37s", "1.5s") in milliseconds. */
function retryDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined
  for (const detail of details) {
    if (typeof detail !== 'object' || detail === null) continue
    const d = detail as Record<string, unknown>
    if (typeof d['@type'] === 'string' && d['@type'].endsWith('google.rpc.RetryInfo') && typeof d.retryDelay === 'string') {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay.trim())
      if (match) return Math.round(Number(match[1]) * 1000)
    }
  }
  return undefined
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
