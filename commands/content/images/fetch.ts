import net from 'node:net'
import type { Dispatcher } from 'undici'
import { DomainError } from '../../../domain/shared/errors.js'
import { refusalOfAddress, type AllowList } from '../../../domain/webhooks/url-policy.js'
import { safeLookup } from '../../network/safe-lookup.js'
import { undici } from '../../network/undici.js'
import type { Resolver } from '../../webhooks.js'

/** How source_url is fetched: the site monitor's policy (SITE_ALLOWED_HOSTS) and resolver, one deadline, a byte cap. */
export interface ImageFetchSettings {
  readonly allowList: AllowList
  readonly resolve: Resolver
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly userAgent: string
}

const MAX_HOPS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])

class Deadline extends Error {}

const refused = (detail: string) => new DomainError('image_source_refused', 'The image address is not allowed', detail)
const failed = (detail: string) => new DomainError('image_fetch_failed', 'The image could not be fetched', detail)
const tooLarge = (detail: string) => new DomainError('image_too_large', 'The image is too large', detail)

/** http(s), no user:password@, and a literal address judged by the policy here (a name is judged at connect time). */
function checkImageUrl(text: string, allow: AllowList): URL {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw refused('not an absolute URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refused(`scheme ${url.protocol.replace(/:$/, '')}: use http or https`)
  if (url.username !== '' || url.password !== '') throw refused('user:password@ in the address is not allowed')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (host === '') throw refused('no host')
  if (net.isIP(host) !== 0) {
    const reason = refusalOfAddress(host, allow)
    if (reason !== null) throw refused(`${reason} (SITE_ALLOWED_HOSTS can allow it)`)
  }
  return url
}

/**
 * Fetches an image from `source`: every hop through the policy-checked lookup (commands/network/safe-lookup.ts),
 * as the site monitor fetches pages, redirects followed by hand (each hop judged), one deadline for every hop's
 * headers and body, and at most `maxBytes` read: a declared Content-Length over it is refused before the body is
 * read, and a body that grows past it is cut off there (the socket destroyed, nothing more buffered).
 */
export async function fetchImage(settings: ImageFetchSettings, source: string): Promise<Buffer> {
  const agent = new (undici().Agent)({
    connect: { lookup: safeLookup(settings.resolve, settings.allowList), timeout: settings.timeoutMs },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  })
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new Deadline(`no complete answer within ${settings.timeoutMs} ms`)), settings.timeoutMs)
  let body: Dispatcher.ResponseData['body'] | null = null
  try {
    let url = checkImageUrl(source, settings.allowList)
    for (let hop = 0; ; hop++) {
      let response: Dispatcher.ResponseData
      try {
        response = await undici().request(url, {
          dispatcher: agent,
          method: 'GET',
          headers: { 'user-agent': settings.userAgent, accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1' },
          signal: deadline.signal,
        })
      } catch (error) {
        throw transportFailure(error, deadline.signal)
      }
      body = response.body
      // Destroying a body emits an error; nobody else listens, and an unheard error would crash the process.
      body.on('error', () => undefined)
      const status = response.statusCode
      const location = response.headers.location
      if (REDIRECTS.has(status) && typeof location === 'string') {
        body.destroy()
        if (hop >= MAX_HOPS) throw failed(`more than ${MAX_HOPS} redirects`)
        let next: URL
        try {
          next = new URL(location, url)
        } catch {
          throw failed('a redirect to something that is not a URL')
        }
        url = checkImageUrl(next.href, settings.allowList)
        continue
      }
      if (status < 200 || status >= 300) throw failed(`${url.href.slice(0, 300)} answered HTTP ${status}`)
      const declared = Number(response.headers['content-length'])
      if (Number.isFinite(declared) && declared > settings.maxBytes)
        throw tooLarge(`${url.href.slice(0, 300)} declares ${declared} bytes; at most ${settings.maxBytes}`)
      const parts: Buffer[] = []
      let size = 0
      try {
        for await (const chunk of body) {
          size += (chunk as Buffer).length
          if (size > settings.maxBytes) throw tooLarge(`${url.href.slice(0, 300)} sent more than ${settings.maxBytes} bytes`)
          parts.push(chunk as Buffer)
        }
      } catch (error) {
        if (error instanceof DomainError) throw error
        throw transportFailure(error, deadline.signal)
      }
      return Buffer.concat(parts)
    }
  } catch (error) {
    if (deadline.signal.aborted && deadline.signal.reason instanceof Deadline && !(error instanceof DomainError))
      throw failed(deadline.signal.reason.message)
    throw error
  } finally {
    clearTimeout(timer)
    if (body && !body.destroyed) body.destroy()
    agent.destroy().catch(() => undefined)
  }
}

function transportFailure(error: unknown, deadline: AbortSignal): DomainError {
  if (deadline.aborted && deadline.reason instanceof Deadline) return failed(deadline.reason.message)
  for (let e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 'EWEBHOOKPOLICY' || e.name === 'PolicyRefusal') return refused(String(e.message))
  }
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const detail = [e.code ?? e.cause?.code, e.cause?.message ?? e.message].filter(Boolean).join(': ')
  return failed(detail.slice(0, 500) || 'the connection failed')
}
