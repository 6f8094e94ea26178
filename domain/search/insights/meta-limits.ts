import { z } from 'zod'

/**
 * How long a title and a meta description may be: Google shows about 60 characters of a title and 155 of a
 * description before cutting them with an ellipsis, so a rewrite longer than that would lose its end. Every
 * proposal (the built-in writer's, a language model's, a person's) is held to them.
 */
export const META_TITLE_MAX_CHARS = 60
export const META_DESCRIPTION_MAX_CHARS = 155
/** Shorter than this, a description wastes the snippet: the built-in writer adds sentences until it is longer. */
export const META_DESCRIPTION_MIN_CHARS = 70

/** built-in (the deterministic writer), manual (a person's text), or a language model's provider:model. */
export const MetaWriterName = z.string().min(1).max(200)
export const BUILT_IN_META_WRITER = 'built-in'
export const MANUAL_META_WRITER = 'manual'

/** One line as stored: NFKC, trimmed, inner spacing collapsed. */
export const cleanMetaText = (text: string): string => text.normalize('NFKC').trim().replace(/\s+/g, ' ')

export const metaLength = (text: string): number => [...text].length

/** Clean (as cleanMetaText leaves it), not empty, and within the limit. */
export const fitsTitle = (text: string): boolean =>
  text.length > 0 && text === cleanMetaText(text) && metaLength(text) <= META_TITLE_MAX_CHARS
export const fitsDescription = (text: string): boolean =>
  text.length > 0 && text === cleanMetaText(text) && metaLength(text) <= META_DESCRIPTION_MAX_CHARS

/** `text` cut at the last word boundary that fits `max` characters (no ellipsis: a tag reads as a whole). */
export function cutAtWord(text: string, max: number): string {
  const chars = [...text]
  if (chars.length <= max) return text
  const head = chars.slice(0, max + 1).join('')
  const space = head.lastIndexOf(' ')
  const cut = space > 0 ? head.slice(0, space) : chars.slice(0, max).join('')
  return cut.replace(/[\s,;:|–-]+$/u, '')
}
