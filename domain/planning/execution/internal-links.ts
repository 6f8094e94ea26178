import { pageUrlKey } from '../../pages/url.js'

/**
 * internal_links, carried out: a link to the target page is added to up to MAX_LINK_SOURCES related pages of
 * the same site (one site edit per source page). Related: sharing words of the title and URL path with the
 * target (and its keyword), ties by the page's id, so the same site always gives the same choice.
 */
export const MAX_LINK_SOURCES = 3

export interface LinkCandidate {
  readonly id: number
  readonly url: string
  readonly title: string
  /** The page's latest content (its newest snapshot). */
  readonly content: string
}

export interface LinkTarget {
  readonly id: number
  readonly url: string
  readonly title: string
  /** The words the link is about (the insight's keyword, else the page's title). */
  readonly anchor: string
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'in',
  'on',
  'for',
  'to',
  'with',
  'near',
  'me',
  'www',
  'com',
  'html',
  'https',
  'http',
])

/** The meaningful words of a text or URL path, lower-case, 3 letters or more. */
export function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
  )
}

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Whether the content already links to the URL (an href naming it, trailing slash aside). */
export function linksTo(content: string, url: string): boolean {
  const key = pageUrlKey(url)
  const path = pathOf(url).replace(/\/+$/, '')
  for (const match of content.matchAll(/href\s*=\s*["']([^"']*)["']/gi)) {
    const href = match[1]!
    if (pageUrlKey(href) === key) return true
    if (path !== '' && href.startsWith('/') && href.replace(/\/+$/, '') === path) return true
  }
  return false
}

/**
 * The content with a paragraph linking to the target, placed before `</body>` when there is one (else at the
 * end); null when it already links there (nothing to add).
 */
export function withLinkTo(content: string, target: Pick<LinkTarget, 'url' | 'anchor'>): string | null {
  if (linksTo(content, target.url)) return null
  const paragraph = `<p class="related-link">Related: <a href="${escapeHtml(target.url)}">${escapeHtml(target.anchor)}</a></p>`
  const body = content.search(/<\/body>/i)
  return body < 0
    ? `${content}${content.endsWith('\n') || content === '' ? '' : '\n'}${paragraph}\n`
    : `${content.slice(0, body)}${paragraph}\n${content.slice(body)}`
}

/** Up to `max` pages to link from, most related first; pages that already link to the target are left out. */
export function linkSources(target: LinkTarget, candidates: readonly LinkCandidate[], max = MAX_LINK_SOURCES): LinkCandidate[] {
  const wanted = new Set([...wordsOf(target.title), ...wordsOf(pathOf(target.url)), ...wordsOf(target.anchor)])
  const targetKey = pageUrlKey(target.url)
  return candidates
    .filter((c) => c.id !== target.id && pageUrlKey(c.url) !== targetKey && !linksTo(c.content, target.url))
    .map((c) => {
      const own = new Set([...wordsOf(c.title), ...wordsOf(pathOf(c.url))])
      const shared = [...wanted].filter((w) => own.has(w)).length
      return { c, shared }
    })
    .sort((a, b) => b.shared - a.shared || a.c.id - b.c.id)
    .slice(0, Math.max(0, max))
    .map((s) => s.c)
}
