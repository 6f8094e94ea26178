import { keywordKey } from '../../../keywords/text.js'
import { pageUrlKey } from '../../../pages/url.js'
import type { Finding } from '../kinds.js'
import type { InsightInputs } from '../inputs.js'
import { pageMatcher } from '../page-match.js'
import { rankSeries } from './series.js'

/**
 * cannibalization: two or more of the client's URLs compete for one query, so neither ranks as well as one
 * would. Seen two ways, each its own insight:
 * - gsc: over the period, a query (with enough impressions) gives a real share of its impressions to each of
 *   two or more pages;
 * - ranks: a keyword's recent checks (the latest rows of every location and device) show different client
 *   URLs ranking for it.
 */
export const CANNIBALIZATION_MIN_QUERY_IMPRESSIONS = 50
/** A page competes when it has at least this share of the query's impressions, and at least the minimum below. */
export const CANNIBALIZATION_MIN_SHARE = 0.1
export const CANNIBALIZATION_MIN_PAGE_IMPRESSIONS = 10
const HIGH_SECOND_SHARE = 0.3

const round = (value: number, digits: number) => Number(value.toFixed(digits))

interface Competitor {
  readonly url: string
  impressions: number
  clicks: number
  weightedPosition: number
}

function gscFindings(inputs: Pick<InsightInputs, 'gsc' | 'gscPeriod' | 'pages' | 'keywords'>): Finding[] {
  if (!inputs.gscPeriod) return []
  const match = pageMatcher(inputs.pages)
  const keywords = new Map(inputs.keywords.map((k) => [keywordKey(k.keyword), k.id]))
  // query key → its text (the first spelling seen) and its pages by URL key
  const queries = new Map<string, { query: string; pages: Map<string, Competitor> }>()
  for (const row of inputs.gsc) {
    const key = keywordKey(row.query)
    if (key === '') continue
    let entry = queries.get(key)
    if (!entry) {
      entry = { query: row.query, pages: new Map() }
      queries.set(key, entry)
    }
    const urlKey = pageUrlKey(row.page)
    const page = entry.pages.get(urlKey) ?? { url: row.page, impressions: 0, clicks: 0, weightedPosition: 0 }
    page.impressions += row.impressions
    page.clicks += row.clicks
    page.weightedPosition += row.position * row.impressions
    entry.pages.set(urlKey, page)
  }
  const findings: Finding[] = []
  for (const [key, { query, pages }] of [...queries.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const total = [...pages.values()].reduce((sum, p) => sum + p.impressions, 0)
    if (total < CANNIBALIZATION_MIN_QUERY_IMPRESSIONS) continue
    const competing = [...pages.values()]
      .filter((p) => p.impressions >= CANNIBALIZATION_MIN_PAGE_IMPRESSIONS && p.impressions / total >= CANNIBALIZATION_MIN_SHARE)
      .sort((a, b) => b.impressions - a.impressions || (a.url < b.url ? -1 : 1))
    if (competing.length < 2) continue
    const list = competing.map((p) => ({
      url: p.url,
      page_id: match(p.url)?.id ?? null,
      impressions: p.impressions,
      clicks: p.clicks,
      share: round(p.impressions / total, 3),
      position: p.impressions > 0 ? round(p.weightedPosition / p.impressions, 1) : null,
    }))
    findings.push({
      insight_type: 'cannibalization',
      source: 'gsc',
      natural_key: `cannibalization:gsc:${key}`,
      severity: list[1]!.share >= HIGH_SECOND_SHARE ? 'high' : 'medium',
      summary: `${list.length} pages share the impressions of "${query}": ${list.map((p) => `${p.url} (${Math.round(p.share * 100)}%)`).join(', ')}`,
      keyword_id: keywords.get(key) ?? null,
      page_id: list[0]!.page_id,
      evidence: { query, impressions: total, pages: list, period_start: inputs.gscPeriod.start, period_end: inputs.gscPeriod.end },
    })
  }
  return findings
}

function rankFindings(inputs: Pick<InsightInputs, 'ranks' | 'keywords'>): Finding[] {
  const names = new Map(inputs.keywords.map((k) => [k.id, k.keyword]))
  const byKeyword = new Map<number, Map<string, { url: string; page_id: number | null; checks: number; best_position: number }>>()
  for (const series of rankSeries(inputs.ranks)) {
    const urls = byKeyword.get(series.keyword_id) ?? new Map()
    for (const row of series.rows) {
      if (row.url === null || row.position === null) continue
      const key = pageUrlKey(row.url)
      const seen = urls.get(key)
      if (seen) {
        seen.checks++
        seen.best_position = Math.min(seen.best_position, row.position)
        seen.page_id ??= row.page_id
      } else urls.set(key, { url: row.url, page_id: row.page_id, checks: 1, best_position: row.position })
    }
    byKeyword.set(series.keyword_id, urls)
  }
  const findings: Finding[] = []
  for (const [keywordId, urls] of [...byKeyword.entries()].sort(([a], [b]) => a - b)) {
    const keyword = names.get(keywordId)
    if (keyword === undefined || urls.size < 2) continue
    const list = [...urls.values()].sort((a, b) => a.best_position - b.best_position || (a.url < b.url ? -1 : 1))
    findings.push({
      insight_type: 'cannibalization',
      source: 'ranks',
      natural_key: `cannibalization:ranks:${keywordId}`,
      severity: 'medium',
      summary: `${list.length} of the client's URLs take turns ranking for "${keyword}": ${list.map((u) => u.url).join(', ')}`,
      keyword_id: keywordId,
      page_id: list[0]!.page_id,
      evidence: { keyword, urls: list },
    })
  }
  return findings
}

export function cannibalizationFindings(inputs: Pick<InsightInputs, 'gsc' | 'gscPeriod' | 'pages' | 'keywords' | 'ranks'>): Finding[] {
  return [...gscFindings(inputs), ...rankFindings(inputs)]
}
