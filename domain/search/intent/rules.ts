import { MAX_SIGNAL_DETAIL, MAX_SIGNALS, type IntentSignalValue, type PageIntentValue } from './events.js'
import { cut, readPageText } from './page-text.js'
import { DEFAULT_INTENT, INTENT_ORDER, INTENT_PHRASES } from './vocabulary.js'

/**
 * The deterministic intent classifier: what the page says about the searcher it serves, weighed where it
 * says it. A word in the URL path or the title is the page's own summary of itself (3); a heading speaks for
 * a section (2); the body text mentions many things (1, and at most 3 phrases per intent, so a long page
 * cannot outvote its title with repetition). The client's own record sharpens it: one of its cities in the
 * URL or title makes a page local (4), one of its services makes it a service page, where searchers compare
 * providers (commercial, 2), its name alone as the title is its brand (navigational, 3), and the site's root
 * is where brand searches land (navigational, 4). The intent is the highest total (ties: INTENT_ORDER).
 *
 * Confidence is the winner's share of all the evidence, scaled down while there is little of it (full only
 * from EVIDENCE_FOR_FULL_CONFIDENCE weight on), between 0.05 and 0.95: rules never claim certainty. A page
 * where nothing matched is DEFAULT_INTENT with confidence 0 and no signals.
 */
export const EVIDENCE_FOR_FULL_CONFIDENCE = 6
export const LONG_FORM_WORDS = 1200

export interface IntentLocation {
  readonly name: string
  readonly city: string
  readonly state: string
}

export interface IntentRuleInput {
  /** The page's URL (or site path); only its path is read. */
  readonly url: string
  /** The latest snapshot's title, or the page's when it has none. */
  readonly title: string
  /** The latest snapshot's content (HTML or text); '' for a page without one. */
  readonly content: string
  readonly client: {
    readonly name: string
    readonly services: readonly string[]
    readonly locations: readonly IntentLocation[]
  }
}

export interface IntentClassification {
  readonly intent: PageIntentValue
  readonly confidence: number
  /** The evidence, strongest first (at most MAX_SIGNALS). */
  readonly signals: IntentSignalValue[]
}

type Place = 'url' | 'title' | 'heading' | 'text'
const WEIGHT: Readonly<Record<Place, number>> = { url: 3, title: 3, heading: 2, text: 1 }
/** Distinct phrases counted per intent and place (the URL and title are short: everything in them counts). */
const CAP: Readonly<Record<Place, number>> = { url: 10, title: 10, heading: 3, text: 3 }
const IN: Readonly<Record<Place, string>> = { url: 'in the URL', title: 'in the title', heading: 'in a heading', text: 'in the text' }

/**
 * Lower-case ASCII words separated by single spaces and padded with one space each side, so `includes(" x ")`
 * is a whole-word match ("Café" reads "cafe", "drain-cleaning" reads "drain cleaning").
 */
export function wordsOf(text: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
  return ` ${plain} `
}

const contains = (words: string, phrase: string) => phrase.trim() !== '' && words.includes(` ${phrase.trim()} `)

/** The URL's path as words, and whether it is the site's root. A bad URL is read as a path. */
function readPath(url: string): { words: string; root: boolean } {
  let path = url
  try {
    path = new URL(url, 'https://site.invalid').pathname
  } catch {
    // a site path that URL cannot place: read it as it is
  }
  try {
    path = decodeURIComponent(path)
  } catch {
    // a stray % stays as it is
  }
  return { words: wordsOf(path), root: /^\/*(index\.(html?|php))?$/i.test(path) }
}

/** The phrases of `intent` found in `words`, without those inside a longer one found ("contact" in "contact us"). */
function phrasesIn(words: string, intent: PageIntentValue): string[] {
  const found = INTENT_PHRASES[intent].filter((phrase) => contains(words, phrase))
  return found.filter((phrase) => !found.some((other) => other !== phrase && ` ${other} `.includes(` ${phrase} `)))
}

class Evidence {
  readonly signals: IntentSignalValue[] = []
  add(intent: PageIntentValue, source: IntentSignalValue['source'], detail: string, weight: number): void {
    this.signals.push({ intent, source, detail: cut(detail, MAX_SIGNAL_DETAIL), weight })
  }
}

/** The intent phrases of each place, weighed and capped per intent. */
function phraseSignals(evidence: Evidence, place: Place, texts: readonly string[]): void {
  for (const intent of INTENT_ORDER) {
    const found = new Set<string>()
    for (const text of texts) for (const phrase of phrasesIn(text, intent)) found.add(phrase)
    for (const phrase of [...found].slice(0, CAP[place])) evidence.add(intent, place, `"${phrase}" ${IN[place]}`, WEIGHT[place])
  }
}

/** A location's city as words: its city, else the first part of its display name ("Austin, TX" → austin). */
function cityOf(location: IntentLocation): { words: string; label: string } {
  const city = location.city.trim() || location.name.split(',')[0]!.trim()
  return { words: wordsOf(city).trim(), label: location.name || city }
}

function clientSignals(
  evidence: Evidence,
  client: IntentRuleInput['client'],
  at: { url: string; title: string; headings: readonly string[]; text: string },
): void {
  const cities = client.locations.map(cityOf).filter((c) => c.words !== '')
  let cityInText = false
  for (const city of cities) {
    const where = `"${city.words}": the client's location ${city.label}`
    if (contains(at.url, city.words)) evidence.add('local', 'client', `${where}, in the URL`, 4)
    if (contains(at.title, city.words)) evidence.add('local', 'client', `${where}, in the title`, 4)
    if (at.headings.some((h) => contains(h, city.words))) evidence.add('local', 'client', `${where}, in a heading`, 3)
    if (!cityInText && contains(at.text, city.words)) {
      evidence.add('local', 'client', `${where}, in the text`, 1)
      cityInText = true
    }
  }
  for (const service of client.services) {
    const words = wordsOf(service).trim()
    if (words === '') continue
    const where = `the client's service "${service}"`
    if (contains(at.url, words) || contains(at.title, words)) evidence.add('commercial', 'client', `${where} names the page`, 2)
    else if (at.headings.some((h) => contains(h, words))) evidence.add('commercial', 'client', `${where} in a heading`, 1)
  }
  const brand = wordsOf(client.name).trim()
  if (brand !== '') {
    if (at.title.trim() === brand) evidence.add('navigational', 'client', `the title is the client's name "${client.name}"`, 3)
    else if (contains(at.title, brand)) evidence.add('navigational', 'client', `the client's name "${client.name}" in the title`, 1)
  }
}

const PHONE = /(?:\(\d{3}\)\s?|\b\d{3}[\s.-])\d{3}[\s.-]\d{4}\b/
const STREET =
  /\b\d{1,6}\s+(?:[A-Za-z0-9.'-]+\s+){0,4}(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|highway|hwy|parkway|pkwy)\b\.?/i
const PRICE = /[$€£]\s?\d/

/** What the text's shape says: a phone number or a street address (a place to call or visit), prices, questions, length. */
function shapeSignals(evidence: Evidence, text: string, headings: readonly string[]): void {
  if (STREET.test(text)) evidence.add('local', 'text', 'a street address', 2)
  if (PHONE.test(text)) evidence.add('local', 'text', 'a phone number', 1)
  if (PRICE.test(text)) evidence.add('commercial', 'text', 'prices', 1)
  const questions = headings.filter((h) => h.trim().endsWith('?')).length
  if (questions >= 2) evidence.add('informational', 'heading', `${questions} headings are questions`, 2)
  const words = text === '' ? 0 : text.split(' ').length
  if (words >= LONG_FORM_WORDS) evidence.add('informational', 'text', `long-form text (${words} words)`, 2)
}

const round2 = (value: number) => Math.round(value * 100) / 100

export function classifyIntentByRules(input: IntentRuleInput): IntentClassification {
  const page = readPageText(input.content)
  const path = readPath(input.url)
  const title = wordsOf(input.title)
  const headings = page.headings.map(wordsOf)
  const text = wordsOf(page.text)
  const evidence = new Evidence()
  if (path.root) evidence.add('navigational', 'url', 'the home page (the site root)', 4)
  phraseSignals(evidence, 'url', [path.words])
  phraseSignals(evidence, 'title', [title])
  phraseSignals(evidence, 'heading', headings)
  phraseSignals(evidence, 'text', [text])
  clientSignals(evidence, input.client, { url: path.words, title, headings, text })
  shapeSignals(evidence, page.text, page.headings)

  const score = new Map<PageIntentValue, number>(INTENT_ORDER.map((intent) => [intent, 0]))
  for (const signal of evidence.signals) score.set(signal.intent, score.get(signal.intent)! + signal.weight)
  const total = [...score.values()].reduce((sum, value) => sum + value, 0)
  if (total === 0) return { intent: DEFAULT_INTENT, confidence: 0, signals: [] }
  // INTENT_ORDER is the tie-break: the first of the highest wins.
  const intent = INTENT_ORDER.reduce((best, candidate) => (score.get(candidate)! > score.get(best)! ? candidate : best))
  const share = score.get(intent)! / total
  const confidence = Math.min(0.95, Math.max(0.05, round2(share * Math.min(1, total / EVIDENCE_FOR_FULL_CONFIDENCE))))
  const signals = evidence.signals
    .map((signal, order) => ({ signal, order }))
    .sort((a, b) => b.signal.weight - a.signal.weight || a.order - b.order)
    .slice(0, MAX_SIGNALS)
    .map(({ signal }) => signal)
  return { intent, confidence, signals }
}
