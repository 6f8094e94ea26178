import type { Dispatcher } from 'undici'
import { undici } from '../../network/undici.js'
import { safeLookup } from '../../network/safe-lookup.js'
import { checkSiteUrl } from './address.js'
import { errorBodyOf, httpError, WordPressError } from './errors.js'
import type { WordPressSettings } from './settings.js'
import { DEFAULT_WORDPRESS_BACKOFF_BASE_MS, DEFAULT_WORDPRESS_MAX_IN_FLIGHT_PER_SITE } from './settings.js'
import { throughSiteGate } from './site-gate.js'

/**
 * One bounded HTTP exchange with a WordPress site. Every attempt:
 * - connects only through the policy-checked lookup (commands/network/safe-lookup.ts), on a fresh undici
 *   Agent destroyed when the attempt ends (no socket outlives it, so nothing leaks between sites or tests);
 * - follows redirects by hand, hop by hop, each hop judged by the address policy (address.ts) before it is
 *   requested; a write follows only 307/308 (which keep the method and body); the Authorization header goes
 *   only to the same host (an https upgrade included), never to another one;
 * - has one deadline for every hop's headers and body, so a site that trickles bytes is cut off;
 * - reads at most `maxResponseBytes` (a longer answer is refused and its socket destroyed, nothing buffered
 *   beyond the cap).
 * A failed attempt is retried with exponential backoff and full jitter (honouring Retry-After) when the
 * category is transient (server_error, timeout, network) and the request may be repeated; never for a 4xx
 * or the address policy. A request that is not idempotent (a create) is repeated only when it never reached
 * the site (a connection refused or not resolved) or the site said 503 (maintenance: nothing was done).
 */
export interface Exchange {
  readonly method: 'GET' | 'POST' | 'DELETE'
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** json: a JSON answer is required; text: any answer, read up to `textLimit` bytes and then cut (not an error). */
  readonly expect: 'json' | 'text'
  readonly textLimit?: number
  /** Whether repeating the request after a failure that may have reached the site is harmless. */
  readonly idempotent: boolean
  /** What the request is, for messages (e.g. "GET /wp/v2/pages/12"). */
  readonly what: string
  /** Strings never to appear in an error message (the password, the Authorization header's value). */
  readonly secrets: readonly string[]
}

export interface ExchangeResult {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The URL that answered (after redirects). */
  readonly url: string
  readonly json: unknown
  readonly text: string
}

const MAX_HOPS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** How much of an error answer is read for WordPress's `{code, message}`; the rest is not needed. */
const ERROR_BODY_BYTES = 64 * 1024
/** A Retry-After longer than this is not waited for (the attempt fails; the caller's own retry takes over). */
const MAX_RETRY_AFTER_MS = 60_000

class Deadline extends Error {}

/** A failure that may be retried after `retryAfterMs` (from Retry-After), and whether it reached the site. */
class AttemptFailure extends WordPressError {
  retryAfterMs: number | null = null
  reachedSite = true
}

export async function exchange(settings: WordPressSettings, ex: Exchange, signal?: AbortSignal): Promise<ExchangeResult> {
  const origin = ex.url.origin
  const limit = settings.maxInFlightPerSite ?? DEFAULT_WORDPRESS_MAX_IN_FLIGHT_PER_SITE
  const base = settings.backoffBaseMs ?? DEFAULT_WORDPRESS_BACKOFF_BASE_MS
  const attempts = Math.max(1, settings.maxAttempts)
  for (let attempt = 1; ; attempt++) {
    try {
      return await throughSiteGate(origin, limit, () => once(settings, ex, signal), signal)
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      const failure = asWordPressError(error)
      const retryable =
        attempt < attempts &&
        (failure.category === 'server_error' || failure.category === 'timeout' || failure.category === 'network') &&
        (ex.idempotent || (failure instanceof AttemptFailure && (!failure.reachedSite || failure.status === 503)))
      if (!retryable) throw scrubbed(failure, ex.secrets)
      const retryAfter = failure instanceof AttemptFailure ? failure.retryAfterMs : null
      if (retryAfter !== null && retryAfter > MAX_RETRY_AFTER_MS) throw scrubbed(failure, ex.secrets)
      // Full jitter: many jobs retrying one site do not come back at the same instant.
      const backoff = Math.random() * base * 2 ** (attempt - 1)
      await sleep(Math.max(retryAfter ?? 0, backoff), signal)
    }
  }
}

async function once(settings: WordPressSettings, ex: Exchange, signal?: AbortSignal): Promise<ExchangeResult> {
  // undici is loaded by the first request (commands/network/undici.ts), not with the app.
  const agent = new (undici().Agent)({
    connect: { lookup: safeLookup(settings.resolve, settings.allowList), timeout: settings.timeoutMs },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  })
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new Deadline(`no complete answer within ${settings.timeoutMs} ms`)), settings.timeoutMs)
  const stop = () => deadline.abort(signal?.reason)
  if (signal?.aborted) stop()
  signal?.addEventListener('abort', stop, { once: true })
  let responseBody: Dispatcher.ResponseData['body'] | null = null
  try {
    let url = new URL(ex.url)
    let method = ex.method
    let body = ex.body
    let headers: Record<string, string> = { ...ex.headers }
    for (let hop = 0; ; hop++) {
      checkSiteUrl(url.href, settings.allowList)
      let response: Dispatcher.ResponseData
      try {
        response = await undici().request(url, {
          dispatcher: agent,
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: deadline.signal,
        })
      } catch (error) {
        throw transportFailure(error, deadline.signal, ex.what)
      }
      responseBody = response.body
      // Destroying a body emits an error; nobody else listens, and an unheard error would crash the process.
      response.body.on('error', () => undefined)
      const status = response.statusCode
      const location = response.headers.location
      if (REDIRECTS.has(status) && typeof location === 'string') {
        response.body.destroy()
        if (hop >= MAX_HOPS) throw new WordPressError('invalid_response', `${ex.what}: more than ${MAX_HOPS} redirects`, status)
        if (method !== 'GET' && status !== 307 && status !== 308)
          throw new WordPressError(
            'invalid_response',
            `${ex.what}: the site redirected a write (HTTP ${status} to ${location.slice(0, 200)}); set the site's address to the one it redirects to`,
            status,
          )
        let next: URL
        try {
          next = new URL(location, url)
        } catch {
          throw new WordPressError('invalid_response', `${ex.what}: a redirect to something that is not a URL`, status)
        }
        if (!sameSite(url, next)) {
          const { authorization: _dropped, ...rest } = headers
          headers = rest
        }
        if (status === 303) {
          method = 'GET'
          body = undefined
        }
        url = next
        continue
      }
      const flat = flatHeaders(response.headers)
      const contentType = flat['content-type'] ?? ''
      if (status < 200 || status >= 300) {
        const bytes = await readCapped(response.body, Math.min(ERROR_BODY_BYTES, settings.maxResponseBytes), true, deadline.signal, ex.what)
        const json = contentType.includes('json') ? parseJson(bytes) : undefined
        const failure = httpError(status, errorBodyOf(json), ex.what, contentType.includes('html'))
        const result = new AttemptFailure(failure.category, failure.message, status, failure.code)
        result.retryAfterMs = retryAfterMs(flat['retry-after'])
        throw result
      }
      if (ex.expect === 'text') {
        const limit = Math.min(ex.textLimit ?? settings.maxResponseBytes, settings.maxResponseBytes)
        const bytes = await readCapped(response.body, limit, true, deadline.signal, ex.what)
        return { status, headers: flat, url: url.href, json: undefined, text: bytes.toString('utf8') }
      }
      const declared = Number(flat['content-length'])
      if (Number.isFinite(declared) && declared > settings.maxResponseBytes) throw tooLarge(ex.what, settings.maxResponseBytes, status)
      if (!contentType.includes('json')) {
        throw new WordPressError(
          'invalid_response',
          contentType.includes('html')
            ? `${ex.what}: the site answered an HTML page where the REST API's JSON was expected (the REST API disabled or blocked by a security plugin, a maintenance or login page in front of it, or not a WordPress site)`
            : `${ex.what}: the site answered ${contentType || 'no content type'} where the REST API's JSON was expected`,
          status,
        )
      }
      const bytes = await readCapped(response.body, settings.maxResponseBytes, false, deadline.signal, ex.what)
      const json = parseJson(bytes)
      if (json === undefined)
        throw new WordPressError(
          'invalid_response',
          `${ex.what}: the answer is not valid JSON (a plugin or theme printing PHP notices or whitespace before it?)`,
          status,
        )
      return { status, headers: flat, url: url.href, json, text: '' }
    }
  } catch (error) {
    if (deadline.signal.aborted && deadline.signal.reason instanceof Deadline) {
      const timeout = new AttemptFailure('timeout', `${ex.what}: ${deadline.signal.reason.message}`)
      throw timeout
    }
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', stop)
    if (responseBody && !responseBody.destroyed) responseBody.destroy()
    agent.destroy().catch(() => undefined)
  }
}

/** Reads a body up to `limit` bytes: beyond it, cut (text, error bodies) or refused (JSON); the socket then destroyed. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  limit: number,
  cut: boolean,
  deadline: AbortSignal,
  what: string,
): Promise<Buffer> {
  const parts: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (size + chunk.length > limit) {
        body.destroy()
        if (!cut) throw tooLarge(what, limit, null)
        parts.push(chunk.subarray(0, limit - size))
        return Buffer.concat(parts)
      }
      parts.push(chunk)
      size += chunk.length
    }
  } catch (error) {
    if (error instanceof WordPressError) throw error
    throw transportFailure(error, deadline, what)
  }
  return Buffer.concat(parts)
}

const tooLarge = (what: string, limit: number, status: number | null) =>
  new WordPressError('invalid_response', `${what}: the answer is too large (over ${limit} bytes, WORDPRESS_MAX_RESPONSE_BYTES)`, status)

/** JSON after an optional byte-order mark and whitespace (some plugins print them); undefined when not JSON. */
function parseJson(bytes: Buffer): unknown {
  const text = bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function transportFailure(error: unknown, deadline: AbortSignal, what: string): WordPressError {
  if (deadline.aborted) {
    if (deadline.reason instanceof Deadline) return new AttemptFailure('timeout', `${what}: ${deadline.reason.message}`)
    throw deadline.reason ?? error
  }
  let connectPhase = false
  for (let e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 'EWEBHOOKPOLICY' || e.name === 'PolicyRefusal')
      return new WordPressError('blocked', `${what}: ${String(e.message).replace('URL policy', 'address policy')}`)
    if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT')
      return new AttemptFailure('timeout', `${what}: ${String(e.message)}`)
    if (
      e.code === 'ECONNREFUSED' ||
      e.code === 'ENOTFOUND' ||
      e.code === 'EAI_AGAIN' ||
      e.code === 'EHOSTUNREACH' ||
      e.code === 'ENETUNREACH'
    )
      connectPhase = true
  }
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const detail = [e.cause?.code ?? e.code, e.cause?.message ?? e.message].filter(Boolean).join(': ')
  const failure = new AttemptFailure('network', `${what}: ${(detail || 'the connection failed').slice(0, 300)}`)
  failure.reachedSite = !connectPhase
  return failure
}

function asWordPressError(error: unknown): WordPressError {
  if (error instanceof WordPressError) return error
  return new WordPressError('network', (error as Error)?.message?.slice(0, 300) ?? 'the request failed')
}

/** The same error with every secret replaced (a hostile or broken site may echo the Authorization header back). */
function scrubbed(error: WordPressError, secrets: readonly string[]): WordPressError {
  let message = error.message
  let code = error.code
  for (const secret of secrets) {
    if (secret.length < 4) continue
    message = message.split(secret).join('[redacted]')
    code = code?.split(secret).join('[redacted]') ?? null
  }
  return new WordPressError(error.category, message, error.status, code)
}

/** Retry-After in milliseconds (seconds or an HTTP date); null when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | null {
  if (value === undefined) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now())
}

/** The Authorization header may follow a redirect to the same host, on the same scheme or upgraded to https. */
const sameSite = (from: URL, to: URL) =>
  from.hostname === to.hostname &&
  (from.protocol === to.protocol || to.protocol === 'https:') &&
  (from.port === to.port || to.protocol === 'https:')

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort)
      resolve()
    }, ms)
    const abort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', abort, { once: true })
  })
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}
