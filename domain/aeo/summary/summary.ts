import { verdict, type Verdict } from './verdict.js'
import { proportion, type Proportion } from './wilson.js'

/**
 * get_aeo_summary, as a pure function of counts the read side has already aggregated: rates with their
 * 95% Wilson intervals per service, per engine and overall, each with a verdict against the previous month
 * that has captures, and share of voice. No I/O: the caller supplies the counts (and the months).
 */

/** Captures of one month for one (service, engine) cell, with how many named the client. */
export interface CaptureCounts {
  readonly month: string
  /** The question's service ('' when the question has none). */
  readonly service: string
  readonly engine: string
  readonly captures: number
  /** scorecard.present: the client is named in the answer or its own domain is cited. */
  readonly present: number
  /** scorecard.named_first: the client is the first business the answer names. */
  readonly namedFirst: number
  /** The answer names the client (scorecard.position is set): a mention for share of voice. */
  readonly mentioned: number
}

export interface Rate extends Proportion {
  /** The same rate in the previous month with captures (null when there is none, or no sample then). */
  readonly previous: Proportion | null
  readonly verdict: Verdict
}

export interface RatePair {
  readonly captures: number
  readonly presence: Rate
  readonly named_first: Rate
}

export interface CompetitorShare {
  readonly name: string
  /** Answers of the month that name this business. */
  readonly mentions: number
  /** mentions / all business mentions. */
  readonly share: number | null
}

export interface ShareOfVoice {
  /** Answers that name the client. */
  readonly client_mentions: number
  /** Client mentions plus every competitor's mentions (one per answer per business). */
  readonly total_mentions: number
  readonly rate: number | null
  /** The most-named competitors, most mentions first (then by name). */
  readonly competitors: CompetitorShare[]
}

export interface RatesSummary {
  readonly month: string
  readonly previous_month: string | null
  readonly captures: number
  readonly overall: RatePair
  readonly services: (RatePair & { readonly service: string })[]
  readonly engines: (RatePair & { readonly engine: string })[]
  readonly share_of_voice: ShareOfVoice
}

export const TOP_COMPETITORS = 5

type Totals = { captures: number; present: number; namedFirst: number }

function total(rows: readonly CaptureCounts[]): Totals {
  const totals = { captures: 0, present: 0, namedFirst: 0 }
  for (const row of rows) {
    totals.captures += row.captures
    totals.present += row.present
    totals.namedFirst += row.namedFirst
  }
  return totals
}

function rate(numerator: number, denominator: number, previous: Proportion | null): Rate {
  const current = proportion(numerator, denominator)
  const before = previous && previous.denominator > 0 ? previous : null
  // Fields written out rather than spread (see summarizeRates).
  return {
    numerator: current.numerator,
    denominator: current.denominator,
    rate: current.rate,
    ci95: current.ci95,
    previous: before,
    verdict: verdict(current, before),
  }
}

function pair(current: Totals, previous: Totals | null): RatePair {
  return {
    captures: current.captures,
    // Both rates are over every answer of the cell: "named first" is a share of all answers, not of the
    // answers that name the client, so the two read on the same scale.
    presence: rate(current.present, current.captures, previous ? proportion(previous.present, previous.captures) : null),
    named_first: rate(current.namedFirst, current.captures, previous ? proportion(previous.namedFirst, previous.captures) : null),
  }
}

function groupBy(rows: readonly CaptureCounts[], key: (row: CaptureCounts) => string): Map<string, CaptureCounts[]> {
  const groups = new Map<string, CaptureCounts[]>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}

/** One rate pair per value of `key` this month, in sort order, each against the same value's previous month. */
function breakdown(
  current: readonly CaptureCounts[],
  previous: readonly CaptureCounts[],
  key: (row: CaptureCounts) => string,
): { name: string; rates: RatePair }[] {
  const now = groupBy(current, key)
  const before = groupBy(previous, key)
  return [...now.keys()].sort().map((name) => {
    const earlier = before.get(name)
    return { name, rates: pair(total(now.get(name)!), earlier ? total(earlier) : null) }
  })
}

/** Share of voice from the client's mentions and each competitor's (name → answers naming it). */
export function shareOfVoice(
  clientMentions: number,
  competitors: readonly { name: string; mentions: number }[],
  top = TOP_COMPETITORS,
): ShareOfVoice {
  const totalMentions = clientMentions + competitors.reduce((sum, c) => sum + c.mentions, 0)
  const share = (n: number) => (totalMentions === 0 ? null : Math.round((n / totalMentions) * 10_000) / 10_000)
  const ranked = [...competitors].sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name)).slice(0, top)
  return {
    client_mentions: clientMentions,
    total_mentions: totalMentions,
    rate: share(clientMentions),
    competitors: ranked.map((c) => ({ name: c.name, mentions: c.mentions, share: share(c.mentions) })),
  }
}

/** The latest month before `month` in `months` (any order), or null. */
export function previousMonth(months: readonly string[], month: string): string | null {
  let best: string | null = null
  for (const m of months) if (m < month && (best === null || m > best)) best = m
  return best
}

/**
 * The rates of `month` against `previousMonth` (rows of other months are ignored), with share of voice
 * from `competitors` (the month's other businesses, each with the number of answers naming it).
 */
export function summarizeRates(input: {
  month: string
  previousMonth: string | null
  counts: readonly CaptureCounts[]
  competitors: readonly { name: string; mentions: number }[]
}): RatesSummary {
  const current = input.counts.filter((r) => r.month === input.month)
  const previous = input.previousMonth === null ? [] : input.counts.filter((r) => r.month === input.previousMonth)
  const overall = pair(total(current), previous.length > 0 ? total(previous) : null)
  const mentioned = current.reduce((sum, r) => sum + r.mentioned, 0)
  return {
    month: input.month,
    previous_month: input.previousMonth,
    captures: overall.captures,
    overall,
    // Objects built field by field, here and in rate(): copying by spread or rest was most of this
    // function's time (about 23 µs an answer in a micro-benchmark, 5 µs without), and get_aeo_summary calls
    // it per answer.
    services: breakdown(current, previous, (r) => r.service).map(({ name, rates }) => ({
      service: name,
      captures: rates.captures,
      presence: rates.presence,
      named_first: rates.named_first,
    })),
    engines: breakdown(current, previous, (r) => r.engine).map(({ name, rates }) => ({
      engine: name,
      captures: rates.captures,
      presence: rates.presence,
      named_first: rates.named_first,
    })),
    share_of_voice: shareOfVoice(mentioned, input.competitors),
  }
}
