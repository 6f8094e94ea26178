import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import type { FetchFailure, OpenResponse } from './fetch-page.js'
import { normalizeUrl, sameSite } from './urls.js'

/**
 * Reads a site's sitemaps (sitemaps.org protocol): urlsets and sitemap indexes (followed three levels deep),
 * plain or gzipped. A sitemap is scanned as it streams in, `<loc>` by `<loc>`, rather than parsed whole: a
 * 100,000-URL sitemap (or a 50 MB one, the protocol's limit) costs the memory of the URLs kept, never of the
 * document, and reading stops (the connection closed) as soon as the crawl's cap is reached. (A DOM or object
 * parser such as fast-xml-parser would hold the whole document and every URL in it first.) Only same-site
 * URLs are kept; the site's robots rules decide which sitemaps are fetched at all.
 */
export interface SitemapRead {
  readonly kind: 'sitemap'
  readonly url: string
  /** Same-site page URLs it listed that were kept (for an index: 0). */
  readonly urls: number
  /** Reading stopped at the cap (of URLs, or of the protocol's 50 MB), so some URLs were left unread. */
  readonly truncated: boolean
  readonly error: string | null
}

export interface SitemapSources {
  /** Fetches a sitemap through the crawl's policy-checked, per-host-throttled fetcher. */
  open(url: string): Promise<OpenResponse | FetchFailure>
  /** Whether robots.txt lets the crawl fetch this URL. */
  allows(url: string): Promise<boolean>
}

const MAX_DEPTH = 3
/** Sitemaps fetched per scan at most (an index may list 50,000 children). */
export const MAX_SITEMAPS = 50
/** The protocol's size limit for one (uncompressed) sitemap. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024
/** A `<loc>` is never this long: a buffer without one that grows past it is dropped. */
const MAX_LOC = 4096

/**
 * Reads `roots` and what they index, adding same-site page URLs to `into` until it holds `cap`; yields one
 * SitemapRead per sitemap fetched.
 */
export async function* readSitemaps(
  roots: readonly string[],
  siteHost: string,
  cap: number,
  into: Set<string>,
  sources: SitemapSources,
): AsyncGenerator<SitemapRead> {
  const queue = roots.map((url) => ({ url, depth: 0 }))
  const seen = new Set(roots)
  let fetched = 0
  while (queue.length > 0 && fetched < MAX_SITEMAPS) {
    const { url, depth } = queue.shift()!
    if (!(await sources.allows(url))) {
      yield { kind: 'sitemap', url, urls: 0, truncated: false, error: 'disallowed by robots.txt' }
      continue
    }
    fetched++
    const response = await sources.open(url)
    if (response.kind === 'failed') {
      yield { kind: 'sitemap', url, urls: 0, truncated: false, error: `${response.code}: ${response.message}` }
      continue
    }
    if (response.status !== 200) {
      response.close()
      yield { kind: 'sitemap', url, urls: 0, truncated: false, error: `HTTP ${response.status}` }
      continue
    }
    let kept = 0
    let truncated = false
    let error: string | null = null
    try {
      for await (const { loc, index } of locations(response)) {
        const target = normalizeUrl(loc)
        if (target === null || !sameSite(target, siteHost)) continue
        if (index) {
          if (depth + 1 <= MAX_DEPTH && !seen.has(target) && queue.length < MAX_SITEMAPS) {
            seen.add(target)
            queue.push({ url: target, depth: depth + 1 })
          }
          continue
        }
        if (!into.has(target)) {
          if (into.size >= cap) {
            truncated = true
            break
          }
          into.add(target)
        }
        kept++
      }
    } catch (cause) {
      error = cause instanceof SitemapTooLarge ? null : `${(cause as { code?: string }).code ?? 'unreadable'}: ${(cause as Error).message}`
      truncated = cause instanceof SitemapTooLarge
    } finally {
      response.close()
    }
    yield { kind: 'sitemap', url, urls: kept, truncated, error }
  }
}

class SitemapTooLarge extends Error {}

/** The `<loc>` values of a sitemap as they stream in, each marked as a child sitemap (index) or a page. */
async function* locations(response: OpenResponse): AsyncGenerator<{ loc: string; index: boolean }> {
  const decoder = new TextDecoder('utf-8')
  let buffer = ''
  let index: boolean | null = null
  let bytes = 0
  for await (const chunk of gunzipped(response)) {
    bytes += chunk.length
    if (bytes > MAX_SITEMAP_BYTES) throw new SitemapTooLarge()
    buffer += decoder.decode(chunk, { stream: true })
    if (index === null) {
      const root = /<(?:[\w-]+:)?(urlset|sitemapindex)\b/i.exec(buffer)
      if (root) index = root[1]!.toLowerCase() === 'sitemapindex'
    }
    const pattern = /<(?:[\w-]+:)?loc\s*>([\s\S]*?)<\/(?:[\w-]+:)?loc\s*>/gi
    let consumed = 0
    for (let match = pattern.exec(buffer); match !== null; match = pattern.exec(buffer)) {
      consumed = pattern.lastIndex
      yield { loc: xmlText(match[1]!), index: index === true }
    }
    buffer = buffer.slice(consumed)
    if (buffer.length > MAX_LOC * 2) buffer = buffer.slice(-MAX_LOC)
  }
}

/** The body's bytes, gunzipped when they are gzip (sitemap.xml.gz; recognised by its magic bytes, not its name). */
async function* gunzipped(response: OpenResponse): AsyncGenerator<Buffer> {
  const iterator = response.chunks[Symbol.asyncIterator]()
  const first = await iterator.next()
  if (first.done) return
  const rest: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      yield first.value
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value
    },
  }
  if (first.value[0] !== 0x1f || first.value[1] !== 0x8b) return yield* rest
  const gunzip = Readable.from(rest).pipe(createGunzip())
  try {
    for await (const chunk of gunzip) yield chunk as Buffer
  } finally {
    gunzip.destroy()
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function xmlText(raw: string): string {
  const text = raw.replace(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/, '$1').trim()
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}
