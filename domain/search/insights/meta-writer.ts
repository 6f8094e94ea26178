import {
  cleanMetaText,
  cutAtWord,
  fitsDescription,
  fitsTitle,
  META_DESCRIPTION_MAX_CHARS,
  META_DESCRIPTION_MIN_CHARS,
  META_TITLE_MAX_CHARS,
  metaLength,
} from './meta-limits.js'

/**
 * The deterministic writer of title and meta description rewrites, used when no language model is
 * configured (and when a model's answer does not fit). It writes the query in, the client's location when
 * the query does not already name it, and the business's name, within the limits, and states nothing it
 * was not given (no prices, offers or claims): a person reviews every proposal before it is staged.
 */
export interface MetaBrief {
  /** The search query the page should earn clicks for. */
  readonly query: string
  /** The client's location ("Austin, TX"), '' when none. */
  readonly location: string
  /** The business's name. */
  readonly business: string
  readonly currentTitle: string
  readonly currentDescription: string
}

export interface MetaRewrite {
  readonly title: string
  readonly description: string
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'near', 'of', 'on', 'or', 'the', 'to', 'with'])

/** "drain cleaning near me" → "Drain Cleaning near Me": small words lower-case except the first. */
export function titleCase(text: string): string {
  return cleanMetaText(text)
    .split(' ')
    .map((word, i) => {
      const lower = word.toLowerCase()
      if (i > 0 && SMALL_WORDS.has(lower)) return lower
      return word === lower ? lower.charAt(0).toUpperCase() + lower.slice(1) : word
    })
    .join(' ')
}

/** The city part of a location ("Austin" of "Austin, TX"). */
const cityOf = (location: string) => cleanMetaText(location.split(',')[0] ?? '')

/** Whether the query already names the place (its city), so "in Austin" would repeat it. */
const namesPlace = (query: string, location: string) => {
  const city = cityOf(location).toLowerCase()
  return city !== '' && query.toLowerCase().includes(city)
}

/**
 * The client location a rewrite for `query` names: the one whose city the query already names, else the
 * client's first location, else none ('').
 */
export function locationForQuery(query: string, locations: readonly string[]): string {
  return locations.find((location) => namesPlace(query, location)) ?? locations[0] ?? ''
}

function firstFitting(candidates: readonly string[], fits: (text: string) => boolean, max: number): string {
  for (const candidate of candidates) {
    const text = cleanMetaText(candidate)
    if (fits(text)) return text
  }
  return cutAtWord(cleanMetaText(candidates[candidates.length - 1] ?? ''), max)
}

function firstSentence(text: string): string {
  const clean = cleanMetaText(text)
  const match = /^(.+?[.!?])(\s|$)/.exec(clean)
  return match ? match[1]! : clean
}

export function builtInMetaRewrite(brief: MetaBrief): MetaRewrite {
  const query = cleanMetaText(brief.query)
  const heading = titleCase(query)
  const business = cleanMetaText(brief.business)
  const location = cleanMetaText(brief.location)
  const place = location !== '' && !namesPlace(query, location)
  const city = cityOf(location)
  const branded =
    business === ''
      ? []
      : [...(place ? [`${heading} in ${location} | ${business}`, `${heading} in ${city} | ${business}`] : []), `${heading} | ${business}`]
  const titles = [...branded, ...(place ? [`${heading} in ${location}`, `${heading} in ${city}`] : []), heading]
  const title = firstFitting(titles, fitsTitle, META_TITLE_MAX_CHARS)

  const where = place ? ` in ${location}` : ''
  const sentences = [
    `Looking for ${query}${where}?`,
    business ? `${business} can help.` : '',
    firstSentence(brief.currentDescription),
    'Get in touch today.',
  ].filter((s) => s !== '')
  let description = ''
  for (const sentence of sentences) {
    const next = description === '' ? sentence : `${description} ${sentence}`
    // A sentence that does not fit is left out whole; a later, shorter one may still fit.
    if (metaLength(next) <= META_DESCRIPTION_MAX_CHARS) description = next
  }
  if (!fitsDescription(description) || metaLength(description) < META_DESCRIPTION_MIN_CHARS)
    description = cutAtWord(cleanMetaText(sentences.join(' ')), META_DESCRIPTION_MAX_CHARS)
  return { title, description }
}
