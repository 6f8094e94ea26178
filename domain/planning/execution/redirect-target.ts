import { pageUrlKey } from '../../pages/url.js'
import { wordsOf } from './internal-links.js'

/**
 * redirect, carried out: a gone page (4xx/5xx) is redirected to the closest live page of the site: the one
 * sharing the longest leading run of path segments with it (/services/drains/old → /services/drains), then
 * the most words of its path with the live page's path and title, then the shortest path (the home page when
 * nothing is closer), then the lowest id.
 */
export interface LivePage {
  readonly id: number
  readonly url: string
  readonly title: string
}

const segmentsOf = (url: string): string[] => {
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    path = url
  }
  return path.split('/').filter((s) => s !== '')
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0
  while (n < a.length && n < b.length && a[n]!.toLowerCase() === b[n]!.toLowerCase()) n++
  return n
}

export function closestLivePage(fromUrl: string, live: readonly LivePage[]): LivePage | null {
  const from = segmentsOf(fromUrl)
  const fromWords = wordsOf(from.join(' '))
  const key = pageUrlKey(fromUrl)
  const scored = live
    .filter((p) => pageUrlKey(p.url) !== key)
    .map((p) => {
      const segments = segmentsOf(p.url)
      const own = new Set([...wordsOf(segments.join(' ')), ...wordsOf(p.title)])
      return { p, prefix: commonPrefix(from, segments), shared: [...fromWords].filter((w) => own.has(w)).length, depth: segments.length }
    })
    .sort((a, b) => b.prefix - a.prefix || b.shared - a.shared || a.depth - b.depth || a.p.id - b.p.id)
  return scored[0]?.p ?? null
}
