/**
 * What the intent classifier reads of a page's content: its headings (h1 to h3) and its visible text. The
 * content is HTML, Elementor text or plain text as add_snapshot recorded it; this is a reader for
 * classification, not an HTML parser: scripts, styles and comments are dropped, tags become spaces, and
 * the common entities are decoded. Linear in the content (every scan is indexOf from where the last one
 * stopped, so unclosed tags cannot make it quadratic) and bounded: only the first MAX_READ_CHARS are read.
 */
export const MAX_READ_CHARS = 200_000
export const MAX_TEXT_CHARS = 20_000
export const MAX_HEADINGS = 30
const MAX_HEADING_CHARS = 200

export interface PageText {
  /** h1 to h3 in document order, each as text (at most MAX_HEADINGS). */
  readonly headings: readonly string[]
  /** The visible text, whitespace collapsed (at most MAX_TEXT_CHARS). */
  readonly text: string
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '-', mdash: '-' }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[1] === 'x' || name[1] === 'X') return safeChar(Number.parseInt(name.slice(2), 16)) ?? whole
    if (name.startsWith('#')) return safeChar(Number.parseInt(name.slice(1), 10)) ?? whole
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

/** A code point as text, or null for one that is not a character (controls below space, surrogates, beyond Unicode). */
function safeChar(code: number): string | null {
  if (!Number.isFinite(code) || code < 0x20 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null
  return String.fromCodePoint(code)
}

/** At most `max` UTF-16 units of `text`, never ending inside a surrogate pair (half a pair is not text). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max
  return text.slice(0, end)
}

/**
 * Text from outside (a model's reason, a provider's error) as one storable line: control characters
 * (U+0000 among them, which PostgreSQL cannot store) as spaces, unpaired surrogates as U+FFFD, at most `max`.
 */
export function storableText(text: string, max: number): string {
  const line = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters replaced.
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/\s+/g, ' ')
    .trim()
  return cut(line, max)
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/**
 * Markup to text: tags become spaces (so words in adjacent cells stay apart), entities decoded. An unclosed
 * tag runs to the end in one match (`$`), so text full of stray "<" stays linear.
 */
function textOf(html: string): string {
  return collapse(decodeEntities(html.replace(/<[^>]*(?:>|$)/g, ' ')))
}

/** Whether the tag name at `at` ends there (`<h1>` or `<h1 class…`, not `<h1x`). */
const endsName = (text: string, at: number) => at >= text.length || /[\s/>]/.test(text[at]!)

/** The content without comments and without the elements that hold no visible text; an unclosed one runs to the end. */
function withoutHidden(html: string): string {
  const lower = html.toLowerCase()
  const kept: string[] = []
  let at = 0
  const opener = /<!--|<(script|style|noscript|template|svg)\b/g
  for (;;) {
    opener.lastIndex = at
    const open = opener.exec(lower)
    if (!open) break
    kept.push(html.slice(at, open.index), ' ')
    const closer = open[0] === '<!--' ? '-->' : `</${open[1]}`
    const close = lower.indexOf(closer, open.index + open[0].length)
    if (close < 0) return kept.join('')
    const end = open[0] === '<!--' ? close + 3 : lower.indexOf('>', close)
    if (end < 0) return kept.join('')
    at = open[0] === '<!--' ? end : end + 1
  }
  kept.push(html.slice(at))
  return kept.join('')
}

function headingsOf(html: string): string[] {
  const lower = html.toLowerCase()
  const headings: string[] = []
  let at = 0
  while (headings.length < MAX_HEADINGS) {
    const open = lower.indexOf('<h', at)
    if (open < 0) break
    const level = lower[open + 2]
    if ((level !== '1' && level !== '2' && level !== '3') || !endsName(lower, open + 3)) {
      at = open + 2
      continue
    }
    const start = lower.indexOf('>', open)
    const close = start < 0 ? -1 : lower.indexOf(`</h${level}`, start)
    if (close < 0) break
    const heading = cut(textOf(html.slice(start + 1, close)), MAX_HEADING_CHARS)
    if (heading !== '') headings.push(heading)
    at = close + 4
  }
  return headings
}

export function readPageText(content: string): PageText {
  const visible = withoutHidden(content.slice(0, MAX_READ_CHARS))
  return { headings: headingsOf(visible), text: cut(textOf(visible), MAX_TEXT_CHARS) }
}
