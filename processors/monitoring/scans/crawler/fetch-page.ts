import net from 'node:net'
import type { Agent, Dispatcher } from 'undici'
import { safeLookup } from '../../../../commands/network/safe-lookup.js'
import { undici } from '../../../../commands/network/undici.js'
import type { Resolver } from '../../../../commands/webhooks.js'
import { MAX_REDIRECT_HOPS } from '../../../../domain/monitoring/page-state.js'
import { refusalOfAddress, type AllowList } from '../../../../domain/webhooks/url-policy.js'
import type { CrawlFailureCode, CrawlValidators } from './types.js'
import { normalizeUrl } from './urls.js'

/**
 * Every request a crawl makes (robots.txt, sitemaps, pages) goes through one of these: an undici Agent whose
 * sockets connect only through the policy-checked lookup (commands/network/safe-lookup.ts), so each address
 * is checked as it is connected to, on every redirect hop. Redirects are followed here by hand, hop by hop,
 * never by undici, so no hop escapes the check; one deadline covers every hop's headers and body, so a server
 * that trickles bytes (slow loris) is cut off at `timeoutMs` whatever it does.
 */
export interface FetcherSettings {
  readonly allowList: AllowList
  readonly resolve: Resolver
  readonly timeoutMs: number
  readonly userAgent: string
  readonly hostConcurrency: number
}

export interface FetchFailure {
  readonly kind: 'failed'
  readonly code: CrawlFailureCode
  readonly message: string
  readonly redirects: readonly { url: string; status: number }[]
}

/** A response whose headers arrived; its body is still to be read (`readBody`, or `chunks` for streaming). */
export interface OpenResponse {
  readonly kind: 'response'
  readonly finalUrl: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly redirects: readonly { url: string; status: number }[]
  /** The body's chunks, as they arrive; breaking out of the loop ends the request. */
  readonly chunks: AsyncIterable<Buffer>
  /** Stops reading: destroys the socket's request and the deadline. Always call it (idempotent). */
  close(): void
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5'

class Timeout extends Error {}

export class Fetcher {
  readonly #agent: Agent
  readonly #settings: FetcherSettings
  readonly #signal: AbortSignal | undefined

  constructor(settings: FetcherSettings, signal?: AbortSignal) {
    this.#settings = settings
    this.#signal = signal
    this.#agent = new (undici().Agent)({
      connect: { lookup: safeLookup(settings.resolve, settings.allowList), timeout: settings.timeoutMs },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
      connections: Math.max(1, settings.hostConcurrency) * 2,
    })
  }

  /** Requests `url`, following redirects; resolves when the final response's headers arrive, or with why not. */
  async open(url: string, validators?: CrawlValidators | null): Promise<OpenResponse | FetchFailure> {
    const deadline = new AbortController()
    const timer = setTimeout(
      () => deadline.abort(new Timeout(`no complete answer within ${this.#settings.timeoutMs} ms`)),
      this.#settings.timeoutMs,
    )
    const stop = () => deadline.abort(this.#signal?.reason ?? new Error('the crawl was stopped'))
    this.#signal?.addEventListener('abort', stop, { once: true })
    const release = () => {
      clearTimeout(timer)
      this.#signal?.removeEventListener('abort', stop)
    }
    const headers: Record<string, string> = { 'user-agent': this.#settings.userAgent, accept: ACCEPT }
    if (validators?.etag) headers['if-none-match'] = validators.etag
    if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified
    const redirects: { url: string; status: number }[] = []
    const fail = (code: CrawlFailureCode, message: string): FetchFailure => {
      release()
      return { kind: 'failed', code, message, redirects }
    }
    let current = url
    for (;;) {
      const refusal = literalAddressRefusal(current, this.#settings.allowList)
      if (refusal !== null) return fail('address_refused', `refused by the URL policy: ${refusal}`)
      let response: Dispatcher.ResponseData
      try {
        response = await undici().request(current, { dispatcher: this.#agent, method: 'GET', headers, signal: deadline.signal })
      } catch (error) {
        return fail(...classify(error, deadline.signal))
      }
      // Destroying a body emits an error; nobody else listens, and an unheard error would crash the process.
      response.body.on('error', () => undefined)
      const location = response.headers.location
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
        response.body.destroy()
        if (redirects.length >= MAX_REDIRECT_HOPS) return fail('too_many_redirects', `more than ${MAX_REDIRECT_HOPS} redirects`)
        redirects.push({ url: current, status: response.statusCode })
        const next = normalizeUrl(location, current)
        if (next === null) return fail('bad_redirect', `redirect to something that is not an http(s) URL: ${location.slice(0, 200)}`)
        current = next
        continue
      }
      const body = response.body
      const signal = deadline.signal
      return {
        kind: 'response',
        finalUrl: current,
        status: response.statusCode,
        headers: flatHeaders(response.headers),
        redirects,
        chunks: {
          async *[Symbol.asyncIterator]() {
            try {
              for await (const chunk of body) yield chunk as Buffer
            } catch (error) {
              throw new BodyError(...classify(error, signal))
            }
          },
        },
        close() {
          release()
          if (!body.destroyed) body.destroy()
        },
      }
    }
  }

  /** Closes the connections (the crawl is over). */
  async close(): Promise<void> {
    await this.#agent.destroy()
  }
}

/** A body that stopped arriving: why, as a crawl failure code. */
export class BodyError extends Error {
  constructor(
    readonly code: CrawlFailureCode,
    message: string,
  ) {
    super(message)
  }
}

export interface ReadBody {
  readonly bytes: Buffer
  /** The body was longer than the cap and was cut there (the socket destroyed: the rest never read). */
  readonly truncated: boolean
}

/** Reads a body up to `maxBytes`; beyond it the request is destroyed, so a 50 MB page costs `maxBytes` of memory. */
export async function readBody(response: OpenResponse, maxBytes: number): Promise<ReadBody | FetchFailure> {
  const parts: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of response.chunks) {
      if (size + chunk.length > maxBytes) {
        parts.push(chunk.subarray(0, maxBytes - size))
        return { bytes: Buffer.concat(parts), truncated: true }
      }
      parts.push(chunk)
      size += chunk.length
    }
    return { bytes: Buffer.concat(parts), truncated: false }
  } catch (error) {
    const failure = error instanceof BodyError ? error : new BodyError('connection_failed', (error as Error).message)
    return { kind: 'failed', code: failure.code, message: failure.message, redirects: response.redirects }
  } finally {
    response.close()
  }
}

/** A URL naming an address literally never reaches the lookup (nothing to resolve): the policy judges it here. */
function literalAddressRefusal(url: string, allow: AllowList): string | null {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  if (net.isIP(host) === 0) return null
  return refusalOfAddress(host, allow)
}

function classify(error: unknown, deadline: AbortSignal): [CrawlFailureCode, string] {
  if (deadline.aborted && deadline.reason instanceof Timeout) return ['timeout', deadline.reason.message]
  for (let e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 'EWEBHOOKPOLICY' || e.name === 'PolicyRefusal') return ['address_refused', String(e.message)]
    if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT')
      return ['timeout', String(e.message)]
  }
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const detail = [e.code ?? e.cause?.code, e.cause?.message ?? e.message].filter(Boolean).join(': ')
  return ['connection_failed', detail.slice(0, 500) || 'the connection failed']
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}
