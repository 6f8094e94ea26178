/**
 * How a URL on a results page is matched to the client: by host, without `www.` and case-insensitively, so
 * http://www.Acme.com/a and https://acme.com/a are the same site. A subdomain (blog.acme.com) is the
 * client's too; a look-alike (notacme.com) is not.
 */

/** The host of a URL or bare domain, lowercased, without a leading `www.`; null when it has none. */
export function siteHost(urlOrDomain: string | null | undefined): string | null {
  if (!urlOrDomain) return null
  const text = urlOrDomain.trim()
  if (text === '') return null
  let host: string
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname
  } catch {
    return null
  }
  host = host.toLowerCase().replace(/\.$/, '')
  if (host.startsWith('www.')) host = host.slice(4)
  return host === '' ? null : host
}

/** Whether `host` (as siteHost gives it) is the client's site or a subdomain of it. */
export function isClientHost(host: string | null, clientHost: string | null): boolean {
  if (host === null || clientHost === null) return false
  return host === clientHost || host.endsWith(`.${clientHost}`)
}

/**
 * The form two page URLs are compared in: site host (as siteHost) and path, without a trailing slash,
 * query or fragment. null for text that is not a URL.
 */
export function pageKey(url: string | null | undefined): string | null {
  if (!url) return null
  const host = siteHost(url)
  if (host === null) return null
  let path: string
  try {
    path = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`).pathname
  } catch {
    return null
  }
  path = path.replace(/\/+$/, '')
  return `${host}${path}`
}
