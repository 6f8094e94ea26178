import { createRequire } from 'node:module'
import type { Readability } from '@mozilla/readability'
import type { parseHTML } from 'linkedom'
import {
  MAX_HEADINGS,
  MAX_HREFLANG,
  MAX_IMAGES,
  MAX_JSON_LD_TYPES,
  MAX_LINKS,
  MAX_MAIN_TEXT,
  MAX_REDIRECT_HOPS,
  type PageState,
} from '../../../../domain/monitoring/page-state.js'
import { contentHash } from './content-hash.js'
import { normalizeUrl, sameSite } from './urls.js'

/**
 * linkedom (~170 modules) and Readability are loaded with the first page extracted, not with the app (most
 * processes never extract one). Extraction is synchronous, so they are required: linkedom's CommonJS build is
 * the same code as its ES one.
 */
const requireFromHere = createRequire(import.meta.url)
let parsers: { parseHTML: typeof parseHTML; Readability: typeof Readability } | undefined
const parsersOf = () =>
  (parsers ??= {
    parseHTML: (requireFromHere('linkedom') as typeof import('linkedom')).parseHTML,
    Readability: (requireFromHere('@mozilla/readability') as typeof import('@mozilla/readability')).Readability,
  })

/**
 * What a page says, as a PageState: a pure function of one response (the crawler calls it on each fetched
 * page, the render scan on Chromium's rendered HTML). One linkedom parse serves every field: linkedom is
 * htmlparser2 underneath (fast, forgiving) and gives Readability the DOM it needs, so a page is parsed once,
 * not once for the fields and again for the main text. Readability runs last because it rewrites the
 * document. Every list is distinct and cut at page-state.ts's bounds; every URL is absolute without fragment.
 */
export interface ExtractExtras {
  /** The redirect hops that led to `finalUrl` (the fetch's), [] when none. */
  readonly redirects?: readonly { url: string; status: number }[]
  /** The body was cut at the crawl's page-size cap. */
  readonly truncated?: boolean
}

const MAX_URL = 2000
const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)/i
const LOOKS_LIKE_HTML = /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)\b/i

export function extractPageState(
  url: string,
  finalUrl: string,
  status: number,
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  body: string,
  extras: ExtractExtras = {},
): PageState {
  const contentType = header(headers, 'content-type')
  const headerRobots = header(headers, 'x-robots-tag')
  const base: Omit<PageState, 'content_hash'> = {
    url: cut(url, MAX_URL),
    final_url: cut(finalUrl, MAX_URL),
    status,
    redirects: (extras.redirects ?? []).slice(0, MAX_REDIRECT_HOPS).map((hop) => ({ url: cut(hop.url, MAX_URL), status: hop.status })),
    content_type: contentType === null ? null : cut(contentType, 200),
    canonical: null,
    robots: headerRobots === null ? null : cut(headerRobots, 500),
    noindex: headerRobots !== null && saysNoindex(headerRobots),
    title: null,
    meta_description: null,
    headings: [],
    word_count: 0,
    internal_links: [],
    outgoing_links: [],
    images: [],
    json_ld_types: [],
    hreflang: [],
    main_text: '',
    truncated: extras.truncated ?? false,
  }
  const isHtml = contentType === null ? LOOKS_LIKE_HTML.test(body.slice(0, 2000)) : HTML_TYPES.test(contentType)
  const state = isHtml && body.trim() !== '' ? { ...base, ...htmlFields(finalUrl, body, headerRobots) } : base
  return { ...state, content_hash: contentHash(state) }
}

/** The little of a linkedom element this file uses. */
interface Element {
  readonly localName: string
  readonly tagName: string
  readonly textContent: string | null
  getAttribute(name: string): string | null
  hasAttribute(name: string): boolean
  remove(): void
  after(...nodes: string[]): void
}
type LinkedomDocument = ReturnType<typeof parseHTML>['document']

type HtmlFields = Pick<
  PageState,
  | 'canonical'
  | 'robots'
  | 'noindex'
  | 'title'
  | 'meta_description'
  | 'headings'
  | 'word_count'
  | 'internal_links'
  | 'outgoing_links'
  | 'images'
  | 'json_ld_types'
  | 'hreflang'
  | 'main_text'
>

function htmlFields(finalUrl: string, body: string, headerRobots: string | null): HtmlFields {
  const { document } = parsersOf().parseHTML(body)
  // One walk over the elements, bucketed by tag: each querySelectorAll is a walk of its own in linkedom.
  const byTag = new Map<string, Element[]>()
  const elements = [...document.querySelectorAll('*')] as unknown as Element[]
  for (const element of elements) {
    const tag = String(element.localName).toLowerCase()
    const bucket = byTag.get(tag)
    if (bucket) bucket.push(element)
    else byTag.set(tag, [element])
  }
  const all = (tag: string): Element[] => byTag.get(tag) ?? []
  const baseHref = all('base')
    .find((b) => b.hasAttribute('href'))
    ?.getAttribute('href')
  const baseUrl = (baseHref && normalizeUrl(baseHref, finalUrl)) || finalUrl
  const site = new URL(finalUrl).host
  const absolute = (href: string | null | undefined) => {
    if (!href) return null
    const resolved = normalizeUrl(href, baseUrl)
    return resolved !== null && resolved.length <= MAX_URL ? resolved : null
  }

  let canonical: string | null = null
  const hreflang: PageState['hreflang'] = []
  const seenLang = new Set<string>()
  for (const link of all('link')) {
    if (!link.hasAttribute('href')) continue
    const rel = ` ${(link.getAttribute('rel') ?? '').toLowerCase()} `
    if (canonical === null && rel.includes(' canonical ')) canonical = absolute(link.getAttribute('href'))
    const lang = link.getAttribute('hreflang')
    if (lang && rel.includes(' alternate ') && hreflang.length < MAX_HREFLANG) {
      const href = absolute(link.getAttribute('href'))
      const key = `${lang.toLowerCase()} ${href}`
      if (href !== null && !seenLang.has(key)) {
        seenLang.add(key)
        hreflang.push({ lang: cut(lang.trim().toLowerCase(), 35), href })
      }
    }
  }

  const robotsParts: string[] = []
  let metaDescription: string | null = null
  for (const meta of all('meta')) {
    const name = (meta.getAttribute('name') ?? '').trim().toLowerCase()
    const content = meta.getAttribute('content')
    if (content === null) continue
    if (name === 'robots') robotsParts.push(collapse(content))
    if (name === 'description' && metaDescription === null) metaDescription = cut(collapse(content), 2000)
  }
  if (headerRobots !== null) robotsParts.push(headerRobots)
  const robots = robotsParts.length > 0 ? cut(robotsParts.join(', '), 500) : null

  const titleElement = all('title')[0]
  const title = titleElement ? cut(collapse(titleElement.textContent ?? ''), 500) : null

  const headings: PageState['headings'] = []
  for (const heading of elements) {
    if (!/^h[1-6]$/i.test(heading.localName)) continue
    if (headings.length >= MAX_HEADINGS) break
    headings.push({ level: Number(heading.tagName[1]), text: cut(collapse(heading.textContent ?? ''), 500) })
  }

  const internal = new Set<string>()
  const outgoing = new Set<string>()
  for (const anchor of all('a')) {
    const href = absolute(anchor.getAttribute('href'))
    if (href === null) continue
    const into = sameSite(href, site) ? internal : outgoing
    if (into.size < MAX_LINKS) into.add(href)
    if (internal.size >= MAX_LINKS && outgoing.size >= MAX_LINKS) break
  }

  const images: PageState['images'] = []
  const seenImages = new Set<string>()
  for (const image of all('img')) {
    if (images.length >= MAX_IMAGES) break
    const src = absolute(image.getAttribute('src') ?? image.getAttribute('data-src'))
    const alt = image.getAttribute('alt')
    const key = `${src} ${alt}`
    if (src === null || seenImages.has(key)) continue
    seenImages.add(key)
    images.push({ src, alt: alt === null ? null : cut(collapse(alt), 500) })
  }

  const types = new Set<string>()
  for (const script of all('script')) {
    if ((script.getAttribute('type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue
    try {
      collectTypes(JSON.parse(script.textContent ?? ''), types, 0)
    } catch {
      // A broken JSON-LD block says nothing a search engine could read either: ignored.
    }
  }

  const text = mainText(document, byTag)
  return {
    canonical,
    robots,
    noindex: robots !== null && saysNoindex(robots),
    title,
    meta_description: metaDescription,
    headings,
    word_count: countWords(text),
    internal_links: [...internal],
    outgoing_links: [...outgoing],
    images,
    json_ld_types: [...types].slice(0, MAX_JSON_LD_TYPES),
    hreflang,
    main_text: cut(text, MAX_MAIN_TEXT),
  }
}

/** The @type of each JSON-LD item: top-level objects, arrays of them and @graph members (not nested properties). */
function collectTypes(value: unknown, into: Set<string>, depth: number): void {
  if (depth > 3 || into.size >= MAX_JSON_LD_TYPES || value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const item of value) collectTypes(item, into, depth + 1)
    return
  }
  const record = value as Record<string, unknown>
  const type = record['@type']
  for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string' && t.trim() !== '') into.add(cut(t.trim(), 200))
  if (record['@graph'] !== undefined) collectTypes(record['@graph'], into, depth + 1)
}

/**
 * The main text: Mozilla Readability's article text, or the body's text (scripts, styles and templates left
 * out) when Readability finds no article (short pages, app shells). Whitespace collapsed.
 */
function mainText(document: LinkedomDocument, byTag: ReadonlyMap<string, Element[]>): string {
  for (const tag of ['script', 'style', 'noscript', 'template']) for (const element of byTag.get(tag) ?? []) element.remove()
  // textContent runs blocks together ("About usOur story"): a space after each block keeps words apart.
  for (const tag of BLOCKS) for (const element of byTag.get(tag) ?? []) element.after(' ')
  let article: { textContent?: string | null | undefined } | null = null
  try {
    article = new (parsersOf().Readability)(document as unknown as ConstructorParameters<typeof Readability>[0], {
      maxElemsToParse: 20_000,
    }).parse()
  } catch {
    // Readability gives up on some documents (too many elements, odd trees): the body text stands in.
  }
  const text = collapse(article?.textContent ?? '')
  return text !== '' ? text : collapse(document.body?.textContent ?? '')
}

const BLOCKS =
  'address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul'.split(
    ' ',
  )

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu

export function countWords(text: string): number {
  let count = 0
  WORD.lastIndex = 0
  while (WORD.exec(text) !== null) count++
  return count
}

const saysNoindex = (robots: string) => /(^|[\s,:])(noindex|none)(\s*(,|$)|\s)/i.test(robots)

function header(headers: Readonly<Record<string, string | readonly string[] | undefined>>, name: string): string | null {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue
    return typeof value === 'string' ? value : value.join(', ')
  }
  return null
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()
const cut = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max))
