/** Text helpers of the analysis: markdown stripping, sentences, name keys and slugs. Pure. */

/** Markdown emphasis, links, headings and list markers removed; whitespace collapsed. */
export function plain(text: string): string {
  // A table row reads as its cells; the separator row as nothing.
  if (/^\s*\|.*\|\s*$/.test(text)) {
    const cells = text
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim())
    text = cells.every((c) => /^:?-{2,}:?$/.test(c)) ? '' : cells.filter(Boolean).join(' — ')
  }
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[(\d+)\]/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/gm, '')
    .replace(/`/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()
}

/** Sentences of an answer (markdown removed), each trimmed and non-empty, in order. */
export function sentences(text: string): string[] {
  const out: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const clean = plain(line)
    if (!clean) continue
    // Split after . ! ? when a capital, digit or quote follows; keeps "St. Louis" mostly whole (needs a space + capital either way).
    for (const part of clean.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/)) {
      const s = part.trim()
      if (s.length > 1) out.push(s)
    }
  }
  return out
}

const LEGAL_SUFFIXES = new Set(['inc', 'llc', 'ltd', 'llp', 'pllc', 'pc', 'co', 'corp', 'corporation', 'company', 'limited', 'plc', 'gmbh'])

/**
 * The identity of a business name: lower-cased words without punctuation, a leading "the", legal
 * suffixes and "&"/"and" differences removed. `The Acme Plumbing Co., Inc.` → `acme plumbing`.
 */
export function nameKey(name: string): string {
  const words = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/['’]s\b/g, 's')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1]!)) words.pop()
  if (words.length > 1 && words[0] === 'the') words.shift()
  return words.filter((w) => w !== 'and').join(' ')
}

/** A key fragment: lower-case words joined by '-', at most 60 characters (`Water Heater Repair` → `water-heater-repair`). */
export function slug(text: string): string {
  const s = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return s.slice(0, 60).replace(/-+$/, '') || 'general'
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Where `name` first occurs in `text` as whole words (case-insensitive, flexible whitespace and
 * punctuation between words, optional "'s"), or -1.
 */
const namePatterns = new Map<string, RegExp | null>()

/** The whole-word, case-insensitive pattern of a name (memoized: the same names are looked up in every sentence). */
function namePattern(name: string): RegExp | null {
  let pattern = namePatterns.get(name)
  if (pattern === undefined) {
    const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean)
    const source = words.map(escapeRegExp).join(`[\\s\\-.,&'’]*(?:and\\s+)?`)
    pattern = words.length === 0 ? null : new RegExp(`(?<![A-Za-z0-9])${source}(?![A-Za-z0-9])`, 'i')
    if (namePatterns.size > 2000) namePatterns.clear()
    namePatterns.set(name, pattern)
  }
  return pattern
}

/**
 * Where `name` first occurs in `text` as whole words (case-insensitive, flexible whitespace and
 * punctuation between words, optional "and"), or -1.
 */
export function findName(text: string, name: string): number {
  const match = namePattern(name)?.exec(text)
  return match ? match.index : -1
}

/** Whole-word mentions of `name` in `text`. */
export function countName(text: string, name: string): number {
  const pattern = namePattern(name)
  return pattern ? [...text.matchAll(new RegExp(pattern.source, 'gi'))].length : 0
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
