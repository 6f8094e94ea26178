import net from 'node:net'
import zlib from 'node:zlib'
import type { Readable } from 'node:stream'
import type { Request, Route } from 'playwright-core'
import type { Agent } from 'undici'
import { PolicyRefusal, safeLookup } from '../../../commands/network/safe-lookup.js'
import { undici } from '../../../commands/network/undici.js'
import type { Resolver } from '../../../commands/webhooks.js'
import { MAX_BLOCKED_LISTED } from '../../../domain/monitoring/renders/events.js'
import { refusalOfAddress, type AllowList } from '../../../domain/webhooks/url-policy.js'

/**
 * Chromium never touches the network itself during a render: every request of the page (document, scripts,
 * styles, images, fetch/XHR, each redirect hop) is intercepted (context.route) and fetched here, through an
 * undici Agent whose sockets connect only through the policy-checked lookup (commands/network/safe-lookup.ts),
 * then handed back to Chromium with route.fulfill. So the address checked is the address connected to
 * (no DNS rebinding between a check and Chromium's own resolution: Chromium resolves nothing), and the
 * page's bytes are counted and capped here. What is not interceptable (WebSocket, WebRTC, prefetch) meets the
 * launch flags in browser.ts: a dead proxy and a resolver that resolves nothing.
 */
export interface GuardSettings {
  readonly allowList: AllowList
  readonly resolve: Resolver
  readonly userAgent: string
  /** The main document is read up to this many bytes (the rest dropped, said as html truncated). */
  readonly maxPageBytes: number
}

/** Requests one render may make at most (a page that loops on fetch() is cut off, not followed forever). */
export const MAX_REQUESTS_PER_RENDER = 300
/** Bytes one render may download across all its requests: several pages' worth of scripts and images. */
export const budgetOfRender = (maxPageBytes: number) => 4 * maxPageBytes

/** Request headers Chromium would send that describe its own connection, not the request: not forwarded. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer'])
/** Response headers that no longer describe the body handed to Chromium (decoded, whole). */
const DROPPED_RESPONSE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'])

export type RefusalKind = 'address_refused' | 'budget'

export class RequestGuard {
  readonly #settings: GuardSettings
  readonly #agent: Agent
  readonly #signal: AbortSignal
  #requests = 0
  #bytes = 0
  /** Requests refused (by the policy or a budget): the count is exact, the URL list a sample. */
  blockedCount = 0
  readonly blockedUrls: string[] = []
  /** Why the page's own document (or a hop of its redirects) was refused, when it was. */
  documentRefusal: { kind: RefusalKind; message: string } | null = null
  /** The main document was larger than maxPageBytes and handed to Chromium cut there. */
  documentTruncated = false

  constructor(settings: GuardSettings, signal: AbortSignal) {
    this.#settings = settings
    this.#signal = signal
    this.#agent = new (undici().Agent)({ connect: { lookup: safeLookup(settings.resolve, settings.allowList) } })
  }

  /** The route handler: fetch through the policy and fulfill, or abort. Never throws (a thrown route handler would hang the page). */
  async handle(route: Route): Promise<void> {
    const req = route.request()
    const isDocument = req.isNavigationRequest() && req.frame().parentFrame() === null
    try {
      const refusal = this.#refusalBeforeFetch(req.url())
      if (refusal !== null) return await this.#refuse(route, req, isDocument, refusal)
      await this.#fetchAndFulfill(route, req, isDocument)
    } catch (error) {
      if (error instanceof PolicyRefusal || (error as { cause?: unknown }).cause instanceof PolicyRefusal) {
        const message = error instanceof PolicyRefusal ? error.message : ((error as { cause: Error }).cause.message ?? String(error))
        await this.#refuse(route, req, isDocument, { kind: 'address_refused', message })
        return
      }
      // A connection error, a timeout, the page closed meanwhile: Chromium sees a failed request.
      await route.abort(this.#signal.aborted ? 'timedout' : 'failed').catch(() => {})
    }
  }

  async close(): Promise<void> {
    await this.#agent.close().catch(() => {})
  }

  /** Literal addresses never reach the lookup: judged here. Schemes other than http(s) are not fetched. */
  #refusalBeforeFetch(text: string): { kind: RefusalKind; message: string } | null {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return { kind: 'address_refused', message: 'not a URL' }
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { kind: 'address_refused', message: `scheme ${url.protocol} is not fetched` }
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (net.isIP(host) !== 0) {
      const reason = refusalOfAddress(host, this.#settings.allowList)
      if (reason !== null) return { kind: 'address_refused', message: `refused by the URL policy: ${reason}` }
    }
    if (++this.#requests > MAX_REQUESTS_PER_RENDER) return { kind: 'budget', message: `more than ${MAX_REQUESTS_PER_RENDER} requests` }
    return null
  }

  async #refuse(route: Route, req: Request, isDocument: boolean, refusal: { kind: RefusalKind; message: string }): Promise<void> {
    this.blockedCount++
    if (this.blockedUrls.length < MAX_BLOCKED_LISTED) this.blockedUrls.push(req.url().slice(0, 2000))
    if (isDocument && this.documentRefusal === null) this.documentRefusal = refusal
    await route.abort('blockedbyclient').catch(() => {})
  }

  async #fetchAndFulfill(route: Route, req: Request, isDocument: boolean): Promise<void> {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(await req.allHeaders())) {
      if (!HOP_HEADERS.has(name.toLowerCase()) && !name.startsWith(':')) headers[name] = value
    }
    headers['user-agent'] = this.#settings.userAgent
    const postData = req.postDataBuffer()
    const response = await undici().request(req.url(), {
      method: req.method() as 'GET',
      headers,
      ...(postData !== null ? { body: postData } : {}),
      dispatcher: this.#agent,
      signal: this.#signal,
      // Redirects go back to Chromium as they are: it follows them, and each hop is routed here again.
      maxRedirections: 0,
    })
    const responseHeaders: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue
      responseHeaders[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value
    }
    const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase()
    const body = await this.#readBody(decoded(response.body, encoding), isDocument)
    if (body === null) {
      response.body.destroy()
      return this.#refuse(route, req, isDocument, { kind: 'budget', message: 'the render’s download budget is spent' })
    }
    await route.fulfill({ status: response.statusCode, headers: responseHeaders, body })
  }

  /** The body, capped: the document is cut at maxPageBytes (and said); anything past the render's budget is refused (null). */
  async #readBody(stream: Readable, isDocument: boolean): Promise<Buffer | null> {
    const chunks: Buffer[] = []
    let size = 0
    const budget = budgetOfRender(this.#settings.maxPageBytes)
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (isDocument && size + chunk.length > this.#settings.maxPageBytes) {
        chunks.push(chunk.subarray(0, this.#settings.maxPageBytes - size))
        this.documentTruncated = true
        stream.destroy()
        break
      }
      size += chunk.length
      this.#bytes += chunk.length
      if (this.#bytes > budget) {
        stream.destroy()
        return null
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks)
  }
}

/** The body as the page should see it: Chromium is handed decoded bytes (content-encoding dropped). */
function decoded(body: Readable, encoding: string): Readable {
  if (encoding === 'gzip' || encoding === 'x-gzip') return body.pipe(zlib.createGunzip())
  if (encoding === 'deflate') return body.pipe(zlib.createInflate())
  if (encoding === 'br') return body.pipe(zlib.createBrotliDecompress())
  return body
}
