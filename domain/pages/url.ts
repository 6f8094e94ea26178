/**
 * The key two page URLs are compared by: scheme and host lower-cased, the fragment dropped and a trailing
 * slash ignored, so `https://Acme.example/about/` and `https://acme.example/about` are the same page. Paths
 * and queries keep their case (servers may distinguish them).
 */
export function pageUrlKey(url: string): string {
  const trimmed = url.trim().replace(/#.*$/, '')
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?]*)(.*)$/i.exec(trimmed)
  const normalized = match ? `${match[1]!.toLowerCase()}${match[2]!.toLowerCase()}${match[3]}` : trimmed
  return normalized.length > 1 ? normalized.replace(/\/+(?=$|\?)/, '') : normalized
}

/** The slug a page is known by when none was given: the last path segment of its URL (empty for the home page). */
export function slugFromUrl(url: string): string {
  const path = url
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
    .replace(/[?#].*$/, '')
  const segments = path.split('/').filter((s) => s !== '')
  return segments.at(-1) ?? ''
}
