import { article, inSentence, serviceTerm } from '../aeo/questions/phrasing.js'
import { fitLines, type AdLines } from './limits.js'

/**
 * The built-in ad copy writer (ad_copy without a language model): headlines and descriptions for one
 * service in one area, from what the client record says: its name, the service (and its description), the
 * area and the website. Pure and deterministic. It states no facts the record does not hold (no prices,
 * licences, guarantees, "free" offers or ratings): every line is either about the client's own data or a
 * plain call to action. Candidates are written longest-useful first; those over the limits are dropped and
 * generic fallbacks guarantee the minimum counts, so the result always fits (fitLines).
 */
export interface WriterInput {
  readonly clientName: string
  readonly websiteUrl: string
  readonly service: { readonly name: string; readonly description: string }
  /** The area's display name ("Austin, TX"); '' for copy about no particular area. */
  readonly area: string
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with'])

/** "drain cleaning" → "Drain Cleaning"; acronyms and mixed case kept ("HVAC", "iPhone"). */
export function titleCase(text: string): string {
  return text
    .split(' ')
    .map((word, i) => (i > 0 && SMALL_WORDS.has(word) ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ')
}

/** "https://www.acme-plumbing.com/home" → "acme-plumbing.com" (for "Visit …" lines); '' when not a URL. */
export function displayDomain(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '')
  } catch {
    return ''
  }
}

/** "Austin, TX" → "Austin". */
const cityOf = (area: string) => (area.split(',')[0] ?? '').trim()

/** A sentence from the service description: trimmed, ending in one full stop. */
function sentence(text: string): string {
  const clean = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.!;:,]+$/, '')
  return clean === '' ? '' : `${clean.charAt(0).toUpperCase()}${clean.slice(1)}.`
}

const FALLBACK_HEADLINES = ['Request a Quote Today', 'Friendly Local Team', 'Call Today for Details', 'Get in Touch Today']
const FALLBACK_DESCRIPTIONS = [
  'Friendly, professional service. Contact us today to get started.',
  'Tell us what you need and we will get back to you quickly. Request a quote today.',
]

export function writeAdGroup(input: WriterInput): AdLines {
  const term = serviceTerm(input.service.name)
  const S = titleCase(inSentence(input.service.name))
  const s = term.text
  const client = input.clientName.trim().replace(/\s+/g, ' ')
  const area = input.area.trim()
  const city = cityOf(area)
  const domain = displayDomain(input.websiteUrl)
  const a = article(term.one)

  const headlines: string[] = []
  if (city) headlines.push(`${S} in ${city}`, `${city} ${S}`)
  if (term.provider) {
    headlines.push(`Your Local ${S}`, `Trusted ${S}`, `Need ${a === 'an' ? 'an' : 'a'} ${S}?`, `Call ${a === 'an' ? 'an' : 'a'} ${S} Today`)
  } else {
    headlines.push(`Local ${S} Experts`, `Trusted ${S}`, `${S} Done Right`, `Need ${S}?`, `Book ${S} Today`, `Get Your ${S} Quote`)
  }
  headlines.push(client, `Call ${client} Today`)
  if (city) headlines.push(`Serving ${city} & Nearby`)
  if (domain) headlines.push(`Visit ${domain}`)
  headlines.push(...FALLBACK_HEADLINES)

  const where = area ? ` in ${area}` : ''
  const whereCity = city ? ` in ${city}` : ''
  const descriptions: string[] = []
  descriptions.push(
    term.provider
      ? `Looking for ${a} ${term.one}${where}? ${client} is ready to help. Contact us today.`
      : `${client} provides ${s}${where}. Contact us today for a quote.`,
    term.provider
      ? `Need ${a} ${term.one}${whereCity}? Our local team is ready to help. Call us today.`
      : `Need ${s}${whereCity}? Our local team is ready to help. Call us today.`,
  )
  const about = sentence(input.service.description)
  if (about) descriptions.push(`${S}: ${about} Serving${area ? ` ${area}` : ' you'}.`, `${about} Contact ${client} today.`)
  if (area) descriptions.push(`Serving ${area} and nearby areas. Call today to schedule ${term.provider ? 'a visit' : s}.`)
  if (domain) descriptions.push(`Learn more about our ${term.provider ? term.many : s} at ${domain} and request a quote today.`)
  descriptions.push(...FALLBACK_DESCRIPTIONS)

  // The fallbacks alone fit, so this is never null.
  return fitLines({ headlines, descriptions })!
}
