import robotsParserModule from 'robots-parser'
import { decodeBody } from './charset.js'
import { type Fetcher, readBody } from './fetch-page.js'
import type { CrawlFailureCode } from './types.js'

// robots-parser is CommonJS (`module.exports = fn`) but types itself as an ES default export: under NodeNext
// the default import is the function itself at run time, and this tells TypeScript so.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default

/** What robots.txt says about one origin, for this scan. */
export interface RobotsRules {
  /** Whether the crawl may fetch `url` (a URL of this origin). */
  allows(url: string): boolean
  /** Crawl-delay in milliseconds (capped), or null when robots.txt sets none. */
  readonly delayMs: number | null
  /** Its `Sitemap:` lines (absolute URLs). */
  readonly sitemaps: readonly string[]
  /** robots.txt could not be fetched at all (refused address, timeout, connection): nothing on the origin is fetched, and why. */
  readonly unreachable: { readonly code: CrawlFailureCode; readonly message: string } | null
}

/** Google reads the first 500 KiB of a robots.txt and ignores the rest; so does the crawl. */
const MAX_ROBOTS_BYTES = 500 * 1024
/** A Crawl-delay above this is read as this: a robots.txt must not stall a scan for days. */
export const MAX_CRAWL_DELAY_MS = 10_000

/**
 * Fetches and reads an origin's robots.txt (once per origin per scan), following Google's rules
 * (developers.google.com/search/docs/crawling-indexing/robots/robots_txt): a 4xx (no robots.txt) allows
 * everything; a 5xx or 429, or no answer at all, disallows everything for this scan, since the site may be
 * down or overloaded and the crawl must not guess what it would have forbidden. Redirects are followed (by
 * the fetcher, each hop policy-checked).
 */
export async function readRobots(fetcher: Fetcher, origin: string, userAgent: string): Promise<RobotsRules> {
  const url = `${origin}/robots.txt`
  const response = await fetcher.open(url)
  if (response.kind === 'failed') return disallowAll({ code: response.code, message: `robots.txt: ${response.message}` })
  if (response.status === 429 || response.status >= 500) {
    response.close()
    return disallowAll(null)
  }
  // 4xx: no robots.txt, everything allowed (an unexpected 1xx/3xx likewise).
  if (response.status < 200 || response.status >= 300) {
    response.close()
    return ALLOW_ALL
  }
  const body = await readBody(response, MAX_ROBOTS_BYTES)
  if ('kind' in body) return disallowAll({ code: body.code, message: `robots.txt: ${body.message}` })
  const robots = robotsParser(url, decodeBody(body.bytes, response.headers['content-type'] ?? null))
  const delay = robots.getCrawlDelay(userAgent)
  return {
    allows: (target) => robots.isAllowed(target, userAgent) !== false,
    delayMs:
      typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? Math.min(MAX_CRAWL_DELAY_MS, Math.round(delay * 1000)) : null,
    sitemaps: robots.getSitemaps(),
    unreachable: null,
  }
}

const ALLOW_ALL: RobotsRules = { allows: () => true, delayMs: null, sitemaps: [], unreachable: null }

const disallowAll = (unreachable: RobotsRules['unreachable']): RobotsRules => ({
  allows: () => false,
  delayMs: null,
  sitemaps: [],
  unreachable,
})
