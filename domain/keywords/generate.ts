import type { Kind as QuestionKind } from '../aeo/questions/question-set.js'
import { inSentence, serviceTerm } from '../aeo/questions/phrasing.js'
import { keywordKey } from './text.js'

/**
 * Keyword candidates for a client (keyword_generation's built-in writer): search-style phrases from its
 * services × locations (service + city, "service near me", best / emergency / affordable / cost variants)
 * and the keyword form of its AI Visibility questions. Pure and deterministic: the same client always
 * gives the same list, highest priority first, de-duplicated by keywordKey, at most `max` long.
 *
 * Bounds mirror the question generator: the first MAX_SERVICES services and MAX_LOCATIONS locations, and
 * later services and locations rank lower, so a capped list covers the main ones first.
 */
export const MAX_SERVICES = 25
export const MAX_LOCATIONS = 15
export const DEFAULT_MAX_KEYWORDS = 200
/** A generated keyword (built-in or a model's) is at most this long and has at most MAX_WORDS words. */
export const MAX_GENERATED_LENGTH = 80
export const MAX_WORDS = 10

export interface KeywordGeneratorInput {
  readonly services: readonly string[]
  readonly locations: readonly { readonly name: string; readonly city: string; readonly state: string }[]
  /** The client's live AI Visibility questions (trust questions name the client and are left out). */
  readonly questions: readonly {
    readonly prompt: string
    readonly service: string
    readonly location: string
    readonly kind: QuestionKind
    readonly priority: number
  }[]
  readonly max: number
}

export interface KeywordCandidate {
  readonly keyword: string
  readonly source: 'generated' | 'aeo'
  /** The service as the client lists it ('' when none). */
  readonly service: string
  /** The location's display name ('' when none). */
  readonly location: string
  readonly priority: number
}

/** Services people search for with "emergency" in front: urgent repairs, not scheduled work. */
const URGENT =
  /(plumb|drain|sewer|leak|water|heat|hvac|furnace|boiler|air condition|\bac\b|roof|lock|electric|tow|glass|pest|dent|restoration|damage|flood|mold|garage door|appliance|septic|tree|vet)/i

const lower = (text: string) => inSentence(text).toLowerCase()
const clean = (text: string) => text.trim().replace(/\s+/g, ' ')

interface Place {
  readonly name: string
  /** "austin" */
  readonly city: string
  /** "tx" when the location has a two-letter state, else null. */
  readonly state: string | null
}

type Pattern = { readonly base: number; readonly phrase: (s: string, many: string) => string | null }

/** Per service, wherever it is searched from. */
const SERVICE_PATTERNS: readonly Pattern[] = [
  { base: 88, phrase: (s) => `${s} near me` },
  { base: 72, phrase: (s) => `best ${s} near me` },
  { base: 66, phrase: (s) => (URGENT.test(s) && !s.startsWith('emergency') ? `emergency ${s} near me` : null) },
  { base: 60, phrase: (s) => `${s} cost` },
]

/** Per service × location; `place` fills in the city (and state). */
const PLACE_PATTERNS: readonly ((p: Place) => Pattern)[] = [
  (p) => ({ base: 95, phrase: (s) => `${s} ${p.city}` }),
  (p) => ({ base: 85, phrase: (s) => `best ${s} ${p.city}` }),
  (p) => ({ base: 80, phrase: (s) => (p.state ? `${s} ${p.city} ${p.state}` : null) }),
  (p) => ({ base: 78, phrase: (s, many) => (many !== s ? `${many} ${p.city}` : null) }),
  (p) => ({ base: 72, phrase: (s) => (URGENT.test(s) && !s.startsWith('emergency') ? `emergency ${s} ${p.city}` : null) }),
  (p) => ({ base: 68, phrase: (s) => `affordable ${s} ${p.city}` }),
  (p) => ({ base: 62, phrase: (s) => `${s} cost ${p.city}` }),
]

const servicePenalty = (index: number) => Math.min(30, index * 5)
const locationPenalty = (index: number) => Math.min(20, index * 4)

function placeOf(location: KeywordGeneratorInput['locations'][number]): Place | null {
  const city = lower(clean(location.city) || clean(location.name).split(',')[0] || '')
  if (city === '') return null
  const state = clean(location.state).toLowerCase()
  return { name: clean(location.name), city, state: /^[a-z]{2}$/.test(state) ? state : null }
}

/** Question words and fillers a searcher leaves out ("how much does drain cleaning cost in austin?"). */
const FILLERS = new Set([
  'who',
  'what',
  'which',
  'where',
  'when',
  'why',
  'how',
  'much',
  'many',
  'is',
  'are',
  'was',
  'does',
  'do',
  'did',
  'should',
  'would',
  'could',
  'can',
  'i',
  'you',
  'your',
  'a',
  'an',
  'the',
  'to',
  'for',
  'of',
  'in',
  'on',
  'at',
  'with',
  'there',
  'any',
  'hire',
  'choose',
  'find',
  'someone',
  'company',
  'companies',
])

/** "how much does drain cleaning cost in Austin, TX?" → "drain cleaning cost austin tx"; null when too little is left. */
export function questionKeyword(prompt: string): string | null {
  const words = prompt
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
  // "near me" stays a phrase: "me" alone is a filler only outside it.
  const kept = words.filter((w, i) => (w === 'me' ? words[i - 1] === 'near' : !FILLERS.has(w)))
  const keyword = kept.join(' ')
  return acceptableKeyword(keyword) && kept.length >= 2 ? keyword : null
}

/** Whether a generated phrase (built-in or a model's) may become a keyword: words, not too long. */
export function acceptableKeyword(text: string): boolean {
  const keyword = clean(text)
  if (keywordKey(keyword) === '' || keyword.length > MAX_GENERATED_LENGTH) return false
  return keyword.split(' ').length <= MAX_WORDS
}

export function generateKeywords(input: KeywordGeneratorInput): KeywordCandidate[] {
  const services = input.services
    .map(clean)
    .filter((s) => s.length > 0)
    .slice(0, MAX_SERVICES)
  const places = input.locations
    .map((l) => placeOf(l))
    .filter((p): p is Place => p !== null)
    .slice(0, MAX_LOCATIONS)
  const candidates: KeywordCandidate[] = []
  services.forEach((service, si) => {
    const s = lower(service)
    const many = serviceTerm(s).many.toLowerCase()
    for (const pattern of SERVICE_PATTERNS) {
      const keyword = pattern.phrase(s, many)
      if (keyword) candidates.push({ keyword, source: 'generated', service, location: '', priority: pattern.base - servicePenalty(si) })
    }
    places.forEach((place, li) => {
      for (const make of PLACE_PATTERNS) {
        const pattern = make(place)
        const keyword = pattern.phrase(s, many)
        if (keyword) {
          candidates.push({
            keyword,
            source: 'generated',
            service,
            location: place.name,
            priority: pattern.base - servicePenalty(si) - locationPenalty(li),
          })
        }
      }
    })
  })
  for (const q of input.questions) {
    if (q.kind === 'trust') continue
    const keyword = questionKeyword(q.prompt)
    // A question's priority is 0–100; its keyword form ranks below the main service × city phrases.
    if (keyword)
      candidates.push({ keyword, source: 'aeo', service: q.service, location: q.location, priority: Math.round(q.priority * 0.6) })
  }
  return rankAndCap(candidates, input.max)
}

/** Highest priority first (stable), one per keywordKey (the first, best-ranked wins), at most `max`. */
export function rankAndCap(candidates: readonly KeywordCandidate[], max: number): KeywordCandidate[] {
  const ranked = candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.priority - a.c.priority || a.i - b.i)
    .map(({ c }) => c)
  const seen = new Set<string>()
  const out: KeywordCandidate[] = []
  for (const c of ranked) {
    if (!acceptableKeyword(c.keyword)) continue
    const key = keywordKey(c.keyword)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(c)
    if (out.length >= max) break
  }
  return out
}
