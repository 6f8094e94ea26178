/**
 * Google Ads' limits for responsive search ads, enforced here and in the event schemas, so no ad group
 * outside them is ever stored: headlines ≤ 30 characters (3 to 15 of them), descriptions ≤ 90 characters
 * (2 to 4). Length counts characters as a person reads them (code points), not UTF-16 units.
 */
export const HEADLINE_MAX_CHARS = 30
export const HEADLINES_MIN = 3
export const HEADLINES_MAX = 15
export const DESCRIPTION_MAX_CHARS = 90
export const DESCRIPTIONS_MIN = 2
export const DESCRIPTIONS_MAX = 4

export const adLength = (text: string): number => [...text].length

/** One line of ad text as stored: trimmed, inner spacing collapsed. */
export const cleanLine = (text: string): string => text.normalize('NFKC').trim().replace(/\s+/g, ' ')

export const fitsHeadline = (text: string): boolean => text.length > 0 && text === cleanLine(text) && adLength(text) <= HEADLINE_MAX_CHARS
export const fitsDescription = (text: string): boolean =>
  text.length > 0 && text === cleanLine(text) && adLength(text) <= DESCRIPTION_MAX_CHARS

export interface AdLines {
  readonly headlines: readonly string[]
  readonly descriptions: readonly string[]
}

/**
 * The lines of `candidates` that fit (cleaned; over-long, empty and repeated lines dropped, never cut
 * mid-word), at most the maximum of each; null when fewer than the minimum of either are left. A model's
 * answer goes through this, so a line that breaks a limit is dropped and a group that cannot be saved is
 * rejected (its caller writes it with the built-in writer instead).
 */
export function fitLines(candidates: {
  readonly headlines: readonly unknown[]
  readonly descriptions: readonly unknown[]
}): AdLines | null {
  const pick = (lines: readonly unknown[], fits: (line: string) => boolean, max: number) => {
    const seen = new Set<string>()
    const out: string[] = []
    for (const line of lines) {
      if (typeof line !== 'string') continue
      const text = cleanLine(line)
      const key = text.toLowerCase()
      if (!fits(text) || seen.has(key)) continue
      seen.add(key)
      out.push(text)
      if (out.length >= max) break
    }
    return out
  }
  const headlines = pick(candidates.headlines, fitsHeadline, HEADLINES_MAX)
  const descriptions = pick(candidates.descriptions, fitsDescription, DESCRIPTIONS_MAX)
  if (headlines.length < HEADLINES_MIN || descriptions.length < DESCRIPTIONS_MIN) return null
  return { headlines, descriptions }
}

/** What is wrong with an ad group's lines against the limits, or null when they fit. */
export function limitProblem(lines: AdLines): string | null {
  if (lines.headlines.length < HEADLINES_MIN || lines.headlines.length > HEADLINES_MAX) {
    return `${lines.headlines.length} headlines; an ad group has ${HEADLINES_MIN} to ${HEADLINES_MAX}`
  }
  if (lines.descriptions.length < DESCRIPTIONS_MIN || lines.descriptions.length > DESCRIPTIONS_MAX) {
    return `${lines.descriptions.length} descriptions; an ad group has ${DESCRIPTIONS_MIN} to ${DESCRIPTIONS_MAX}`
  }
  const headline = lines.headlines.find((h) => !fitsHeadline(h))
  if (headline !== undefined) return `headline "${headline}" is ${adLength(headline)} characters; the limit is ${HEADLINE_MAX_CHARS}`
  const description = lines.descriptions.find((d) => !fitsDescription(d))
  if (description !== undefined)
    return `description "${description}" is ${adLength(description)} characters; the limit is ${DESCRIPTION_MAX_CHARS}`
  return null
}
