import { keywordKey } from '../../keywords/text.js'
import type { KeywordMetricsRow, MetricsValues } from './events.js'

/** A keyword the fetch asked about: its identity and the text sent. */
export interface SentKeyword {
  readonly keyword_key: string
  readonly keyword: string
}

/**
 * One result of a Google Ads search volume task as the provider gave it (DataForSEO's field names), before
 * anything is trusted: any field may be missing or null.
 */
export interface VolumeResult {
  readonly keyword?: string | null | undefined
  readonly spell?: string | null | undefined
  readonly search_volume?: number | null | undefined
  readonly cpc?: number | null | undefined
  readonly competition?: string | null | undefined
  readonly competition_index?: number | null | undefined
  readonly low_top_of_page_bid?: number | null | undefined
  readonly high_top_of_page_bid?: number | null | undefined
  readonly monthly_searches?: readonly { year?: number | null; month?: number | null; search_volume?: number | null }[] | null | undefined
}

/** One keyword's difficulty as DataForSEO Labs gave it. */
export interface DifficultyResult {
  readonly keyword?: string | null | undefined
  readonly keyword_difficulty?: number | null | undefined
}

const MAX_MONTHS = 48

const finite = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null
const wholeNumber = (value: number | null | undefined): number | null => {
  const n = finite(value)
  return n === null ? null : Math.round(n)
}
const percent = (value: number | null | undefined): number | null => {
  const n = wholeNumber(value)
  return n === null ? null : Math.min(100, n)
}
/** Money in USD to the cent's hundredth, as Google Ads reports bids. */
const money = (value: number | null | undefined): number | null => {
  const n = finite(value)
  return n === null ? null : Math.round(n * 10_000) / 10_000
}

function competitionOf(value: string | null | undefined): MetricsValues['competition'] {
  const level = value?.trim().toLowerCase()
  return level === 'low' || level === 'medium' || level === 'high' ? level : null
}

function monthsOf(value: VolumeResult['monthly_searches']): MetricsValues['monthly_searches'] {
  const months: MetricsValues['monthly_searches'] = []
  const seen = new Set<string>()
  for (const m of value ?? []) {
    const year = wholeNumber(m.year)
    const month = wholeNumber(m.month)
    if (year === null || month === null || year < 2000 || year > 2100 || month < 1 || month > 12) continue
    const key = `${year}-${month}`
    if (seen.has(key)) continue
    seen.add(key)
    months.push({ year, month, search_volume: wholeNumber(m.search_volume) })
  }
  months.sort((a, b) => b.year - a.year || b.month - a.month)
  return months.slice(0, MAX_MONTHS)
}

/** A provider's numbers made safe to record: negative or non-numeric values become null, levels lower-case. */
export function valuesOf(result: VolumeResult | undefined, difficulty: number | null): MetricsValues {
  return {
    search_volume: wholeNumber(result?.search_volume),
    cpc: money(result?.cpc),
    competition: competitionOf(result?.competition),
    competition_index: percent(result?.competition_index),
    low_top_of_page_bid: money(result?.low_top_of_page_bid),
    high_top_of_page_bid: money(result?.high_top_of_page_bid),
    difficulty: percent(difficulty),
    monthly_searches: monthsOf(result?.monthly_searches),
  }
}

/**
 * The rows of a fetch: one per keyword sent, in the order sent, whether or not the provider had numbers for
 * it (Google Ads has none for some phrases: a row of nulls, so the keyword is not asked about again until it
 * is stale). Results are matched by normalized text, the corrected spelling as a fallback; difficulties
 * likewise (null: Labs was not asked, or does not know the phrase).
 */
export function metricsRows(
  sent: readonly SentKeyword[],
  volumes: readonly VolumeResult[],
  difficulties: readonly DifficultyResult[] | null,
): KeywordMetricsRow[] {
  const byKey = new Map<string, VolumeResult>()
  const bySpelling = new Map<string, VolumeResult>()
  for (const result of volumes) {
    if (result.keyword) byKey.set(keywordKey(result.keyword), result)
    if (result.spell) bySpelling.set(keywordKey(result.spell), result)
  }
  const difficultyByKey = new Map<string, number | null>()
  for (const item of difficulties ?? []) if (item.keyword) difficultyByKey.set(keywordKey(item.keyword), item.keyword_difficulty ?? null)
  return sent.map((k) => {
    const result = byKey.get(k.keyword_key) ?? bySpelling.get(k.keyword_key)
    const spell = result?.spell?.trim()
    return {
      keyword_key: k.keyword_key,
      keyword: k.keyword,
      spell: spell ? spell.slice(0, 200) : null,
      ...valuesOf(result, difficultyByKey.get(k.keyword_key) ?? null),
    }
  })
}
