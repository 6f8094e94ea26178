import type { Engine } from '../../../domain/aeo/engines.js'
import { US_STATES } from '../../../domain/shared/us-states.js'

/** A web source as the engine gave it. */
export interface Source {
  readonly url: string
  readonly title?: string
}

/** One answer of an engine to one prompt, read from the provider's own response format. */
export interface EngineAnswer {
  readonly answer_text: string
  /** Sources the engine cited in its answer. */
  readonly citations: readonly Source[]
  /** Sources the engine retrieved (searched and read) but did not cite. */
  readonly retrieved: readonly Source[]
  /** The model that actually answered, from the response (not the one asked for). */
  readonly model: string
  /** Whether the engine searched the web for this answer. */
  readonly searched: boolean
  /** The raw provider response (JSON), kept as the capture's record. */
  readonly record: unknown
}

export interface AskOptions {
  /** The run's geography (a US state code or name, or free text); the engine is told the user is there. */
  readonly geoState?: string | null
  readonly signal?: AbortSignal
}

/** An answer engine asked through its provider's official SDK, with web search / grounding enabled. */
export interface EngineAdapter {
  readonly engine: Extract<Engine, 'claude' | 'openai' | 'gemini'>
  /** Asks once (the SDK's own retries are off: the runs queue retries). Throws EngineError, never anything else. */
  ask(prompt: string, options?: AskOptions): Promise<EngineAnswer>
}

/** Options every adapter takes besides its settings. */
export interface AdapterOptions {
  /** Bound on one provider request (default 180 s: web search answers are slow). */
  readonly timeoutMs?: number
}

export const DEFAULT_TIMEOUT_MS = 180_000

/**
 * A provider failure: the provider's own reason, the HTTP status when there was one, whether asking again
 * later may succeed, and how long the provider asked us to wait (rate limits).
 */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  readonly reason: string
  readonly status: number | undefined
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined

  constructor(
    reason: string,
    options: { status?: number | undefined; retryable: boolean; retryAfterMs?: number | undefined; cause?: unknown },
  ) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause })
    this.reason = reason
    this.status = options.status
    this.retryable = options.retryable
    this.retryAfterMs = options.retryAfterMs
  }
}

/** Statuses worth asking again later: timeouts, conflicts, rate limits, provider-side failures (incl. 529 overloaded). */
export function retryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * The wait a provider asked for, from `retry-after-ms`, or `retry-after` in seconds or as an HTTP date.
 * Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms))
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.round(Number(after.trim()) * 1000)
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now())
}

/**
 * Collects sources in order of first appearance, one per URL (the first non-empty title wins). Cited and
 * retrieved are kept apart: a URL that was cited is never also listed as merely retrieved.
 */
export class SourceSet {
  private readonly byUrl = new Map<string, { url: string; title?: string }>()

  add(url: unknown, title?: unknown): void {
    if (typeof url !== 'string') return
    const trimmed = url.trim()
    if (trimmed === '') return
    const existing = this.byUrl.get(trimmed)
    const cleanTitle = typeof title === 'string' && title.trim() !== '' ? title.trim() : undefined
    if (existing) {
      if (existing.title === undefined && cleanTitle !== undefined) existing.title = cleanTitle
      return
    }
    this.byUrl.set(trimmed, cleanTitle === undefined ? { url: trimmed } : { url: trimmed, title: cleanTitle })
  }

  has(url: string): boolean {
    return this.byUrl.has(url.trim())
  }

  list(): Source[] {
    return [...this.byUrl.values()].map((s) => ({ ...s }))
  }

  /** This set's sources that are not in `cited`. */
  except(cited: SourceSet): Source[] {
    return this.list().filter((s) => !cited.has(s.url))
  }
}

/** An approximate user location for a run's geo: a US state (by code or name) gets country US; anything else is a free-text region. */
export function approximateLocation(geoState: string | null | undefined): { region: string; country?: string } | undefined {
  const geo = geoState?.trim()
  if (!geo || geo.toLowerCase() === 'any') return undefined
  const byCode = US_STATES[geo.toUpperCase()]
  if (byCode) return { region: byCode, country: 'US' }
  const byName = Object.values(US_STATES).find((name) => name.toLowerCase() === geo.toLowerCase())
  if (byName) return { region: byName, country: 'US' }
  return { region: geo }
}

/** A value as plain JSON (what the provider sent, without SDK class wrappers or functions). */
export function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null))
}

/** Whether the error is an abort (the caller's signal): those are passed through as non-provider failures. */
export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError'))
}
