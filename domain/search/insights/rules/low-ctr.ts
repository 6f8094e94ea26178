import { keywordKey } from '../../../keywords/text.js'
import { pageUrlKey } from '../../../pages/url.js'
import { EXPECTED_CTR_MAX_POSITION, expectedCtr } from '../expected-ctr.js'
import type { Finding } from '../kinds.js'
import type { InsightInputs } from '../inputs.js'
import { pageMatcher } from '../page-match.js'

/**
 * low_ctr: a query × page with enough impressions over the period whose CTR is less than half of what its
 * position earns (expected-ctr.ts). The title and description are what a searcher sees before clicking, so
 * this is the insight meta optimizations are proposed from. Only positions on the first two pages count
 * (beyond, almost nobody sees the result and the curve says little). Severity by the clicks it misses.
 */
export const LOW_CTR_MIN_IMPRESSIONS = 100
export const LOW_CTR_RATIO = 0.5
const HIGH_MISSED_CLICKS = 50
const MEDIUM_MISSED_CLICKS = 10

const round = (value: number, digits: number) => Number(value.toFixed(digits))

export function lowCtrFindings(inputs: Pick<InsightInputs, 'gsc' | 'gscPeriod' | 'pages' | 'keywords'>): Finding[] {
  if (!inputs.gscPeriod) return []
  const period = inputs.gscPeriod
  const match = pageMatcher(inputs.pages)
  const keywords = new Map(inputs.keywords.map((k) => [keywordKey(k.keyword), k.id]))
  const findings: Finding[] = []
  for (const row of inputs.gsc) {
    if (row.impressions < LOW_CTR_MIN_IMPRESSIONS || row.position > EXPECTED_CTR_MAX_POSITION) continue
    const ctr = row.clicks / row.impressions
    const expected = expectedCtr(row.position)
    if (ctr >= expected * LOW_CTR_RATIO) continue
    const missed = Math.round(row.impressions * expected - row.clicks)
    const page = match(row.page)
    findings.push({
      insight_type: 'low_ctr',
      source: 'gsc',
      natural_key: `low_ctr:${pageUrlKey(row.page)}|${keywordKey(row.query)}`,
      severity: missed >= HIGH_MISSED_CLICKS ? 'high' : missed >= MEDIUM_MISSED_CLICKS ? 'medium' : 'low',
      summary:
        `"${row.query}" on ${row.page}: CTR ${(ctr * 100).toFixed(1)}% at position ${row.position.toFixed(1)}, ` +
        `where ${(expected * 100).toFixed(1)}% is usual (about ${missed} clicks missed)`,
      keyword_id: keywords.get(keywordKey(row.query)) ?? null,
      page_id: page?.id ?? null,
      evidence: {
        query: row.query,
        page_url: row.page,
        impressions: row.impressions,
        clicks: row.clicks,
        ctr: round(ctr, 4),
        position: round(row.position, 1),
        expected_ctr: round(expected, 4),
        missed_clicks: missed,
        period_start: period.start,
        period_end: period.end,
      },
    })
  }
  return findings
}
