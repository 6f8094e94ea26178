/**
 * The crawl's URL rules. A URL is kept in one normal form so the same page is never fetched twice under two
 * spellings: scheme and host lower-cased (WHATWG URL does both), the fragment dropped (it never reaches the
 * server), the default port dropped (WHATWG URL does it). Paths and queries keep their case: servers may
 * distinguish them. Only http and https are crawled.
 */

/** `raw` resolved against `base` and normalised; null when it is not an http(s) URL (mailto:, javascript:, garbage). */
export function normalizeUrl(raw: string, base?: string): string | null {
  let url: URL
  try {
    url = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  if (url.hostname === '') return null
  url.hash = ''
  url.username = ''
  url.password = ''
  return url.href
}

/** The site a host belongs to: the host without a leading `www.` (www.acme.example and acme.example are one site). */
export const siteOf = (host: string): string => host.toLowerCase().replace(/^www\./, '')

/** Whether `url` is on the same site as `siteHost` (a URL's `host`: same host and port, www-insensitive). */
export function sameSite(url: string, siteHost: string): boolean {
  try {
    return siteOf(new URL(url).host) === siteOf(siteHost)
  } catch {
    return false
  }
}

/** The origin (scheme, host, port) robots.txt is read for: each origin has its own. */
export function originOf(url: string): string {
  return new URL(url).origin
}
