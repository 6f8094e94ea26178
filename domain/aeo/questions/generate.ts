import { DomainError } from '../../shared/errors.js'
import { promptKey } from '../prompt.js'
import { article, serviceTerm, type ServiceTerm } from './phrasing.js'
import type { Kind } from './question-set.js'

/**
 * The buyer-style question set of a client, from its services × locations: for every pair, one or two
 * phrasings of each kind a buyer asks an answer engine (best-of, near-me, cost, comparison, trust).
 * Pure and deterministic: the same client always gives the same list, so generating again adds only what
 * is missing from the set.
 *
 * Bounds (a client may list 200 services and 500 locations): the first MAX_SERVICES services and
 * MAX_LOCATIONS locations are used, and whole service × location pairs (every kind, so each service is
 * measured the same way) are kept, most important pair first (earlier services and locations, as the client
 * lists them), until MAX_GENERATED questions. The result is ordered by priority, highest first.
 */
export const MAX_SERVICES = 20
export const MAX_LOCATIONS = 10
export const MAX_GENERATED = 120

export interface GeneratorLocation {
  /** The display name, "Austin, TX". */
  readonly name: string
  /** The city alone, for "near Round Rock"; the name is used when empty. */
  readonly city: string
}

export interface GeneratorInput {
  readonly clientName: string
  readonly services: readonly string[]
  readonly locations: readonly GeneratorLocation[]
}

export interface GeneratedQuestion {
  readonly prompt: string
  /** The service as the client lists it. */
  readonly service: string
  /** The location's display name, '' when the client has none. */
  readonly location: string
  readonly kind: Kind
  /** 1–100: higher is asked first. */
  readonly priority: number
}

interface Place {
  /** "in Austin, TX" or null when the client has no location. */
  readonly in: string | null
  /** "near Round Rock", or "near me". */
  readonly near: string
}

interface Phrasing {
  readonly kind: Kind
  /** Priority of this phrasing for the first service in the first location. */
  readonly base: number
  readonly phrase: (s: ServiceTerm, place: Place, client: string) => string
}

const where = (place: Place, orElse: string) => (place.in === null ? orElse : ` ${place.in}`)

/** The phrasings of one service in one place, best first. Questions end in "?", search-style phrases do not. */
const PHRASINGS: readonly Phrasing[] = [
  {
    kind: 'best-of',
    base: 90,
    phrase: (s, p) => (s.provider ? `best ${s.one}${where(p, ' near me')}` : `best company for ${s.text}${where(p, ' near me')}`),
  },
  {
    kind: 'near-me',
    base: 85,
    phrase: (s, p) => (s.provider ? `who is a good ${s.one} ${p.near}?` : `who should I hire for ${s.text} ${p.near}?`),
  },
  {
    kind: 'cost',
    base: 75,
    phrase: (s, p) =>
      s.provider ? `how much does ${article(s.one)} ${s.one} cost${where(p, '')}?` : `how much ${s.does} ${s.text} cost${where(p, '')}?`,
  },
  {
    kind: 'best-of',
    base: 70,
    phrase: (s, p) =>
      s.provider ? `who is the best ${s.one}${where(p, ' to hire')}?` : `which company is best for ${s.text}${where(p, ' near me')}?`,
  },
  {
    kind: 'comparison',
    base: 65,
    phrase: (s, p) =>
      s.provider ? `compare the top ${s.many}${where(p, ' near me')}` : `compare the top companies for ${s.text}${where(p, ' near me')}`,
  },
  {
    kind: 'trust',
    base: 55,
    phrase: (s, p, client) =>
      s.provider
        ? `is ${client} a trustworthy ${s.one}${where(p, '')}?`
        : `is ${client} a trustworthy choice for ${s.text}${where(p, '')}?`,
  },
]

/** Later services and locations rank lower, so a capped set covers the main ones first. */
const servicePenalty = (index: number) => Math.min(30, index * 5)
const locationPenalty = (index: number) => Math.min(20, index * 4)

const clean = (text: string) => text.trim().replace(/\s+/g, ' ')

function placeOf(location: GeneratorLocation | null): Place {
  if (location === null) return { in: null, near: 'near me' }
  const name = clean(location.name)
  const city = clean(location.city) || name
  return { in: `in ${name}`, near: `near ${city}` }
}

/** Throws aeo_no_services when there is nothing to ask about. */
export function generateQuestions(input: GeneratorInput): GeneratedQuestion[] {
  const services = input.services
    .map(clean)
    .filter((s) => s.length > 0)
    .slice(0, MAX_SERVICES)
  if (services.length === 0) {
    throw new DomainError('aeo_no_services', 'The client has no services to build questions from', 'add services to the client first')
  }
  const locations: (GeneratorLocation | null)[] = input.locations.filter((l) => clean(l.name) !== '').slice(0, MAX_LOCATIONS)
  if (locations.length === 0) locations.push(null)
  const client = clean(input.clientName)

  const pairs = services.flatMap((service, si) => locations.map((location, li) => ({ service, si, location, li })))
  // The most important pairs first; ties keep the client's order (service, then location).
  pairs.sort((a, b) => servicePenalty(a.si) + locationPenalty(a.li) - (servicePenalty(b.si) + locationPenalty(b.li)))

  const chosen: (GeneratedQuestion & { order: number })[] = []
  const seen = new Set<string>()
  for (const { service, si, location, li } of pairs) {
    if (chosen.length >= MAX_GENERATED) break
    const term = serviceTerm(service)
    const place = placeOf(location)
    for (const phrasing of PHRASINGS) {
      const prompt = phrasing.phrase(term, place, client).replace(/\s+/g, ' ').trim()
      const key = promptKey(prompt)
      if (seen.has(key) || chosen.length >= MAX_GENERATED) continue
      seen.add(key)
      const priority = Math.max(1, phrasing.base - servicePenalty(si) - locationPenalty(li))
      chosen.push({
        prompt,
        service,
        location: location === null ? '' : clean(location.name),
        kind: phrasing.kind,
        priority,
        order: chosen.length,
      })
    }
  }
  // Highest priority first; ties keep the order chosen.
  chosen.sort((a, b) => b.priority - a.priority || a.order - b.order)
  return chosen.map(({ order: _order, ...question }) => question)
}
