import { pageUrlKey } from '../../pages/url.js'
import type { InsightPage } from './inputs.js'

/** The path (with its query) of an absolute URL, or the text itself when it is already a path. */
function pathOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(.*)$/i.exec(url.trim())
  const path = match ? match[1]! : url.trim()
  return path === '' ? '/' : path
}

/**
 * Finds the client page a URL seen in Search Console or a SERP is. Pages are compared by pageUrlKey (scheme
 * and host case, trailing slash and fragment ignored); a page stored as a site path (`/drain-cleaning`)
 * matches any absolute URL with that path, since the client's pages are all on its own site.
 */
export function pageMatcher(pages: readonly InsightPage[]): (url: string) => InsightPage | undefined {
  const byKey = new Map<string, InsightPage>()
  const byPath = new Map<string, InsightPage>()
  for (const page of pages) {
    byKey.set(pageUrlKey(page.url), page)
    if (page.url.trim().startsWith('/')) byPath.set(pageUrlKey(pathOf(page.url)), page)
  }
  return (url) => byKey.get(pageUrlKey(url)) ?? byPath.get(pageUrlKey(pathOf(url)))
}
