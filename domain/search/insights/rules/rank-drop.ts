import type { Finding } from '../kinds.js'
import type { InsightInputs } from '../inputs.js'
import { positionText, rankSeries, whereSeen } from './series.js'

/**
 * rank_drop: the latest check of a keyword × location × device is at least RANK_DROP_POSITIONS worse than
 * the best of the checks before it (up to four), or it left the top 10 it was in. "Not in the top 100"
 * counts as position 101. The comparison looks back a few checks, not only one, so a drop stays an insight
 * while it lasts; once the earlier, better checks are more than four back, the new position is the baseline
 * and the insight resolves, as it does when the rank recovers.
 */
export const RANK_DROP_POSITIONS = 5
export const TOP_10 = 10
const UNRANKED = 101

export function rankDropFindings(inputs: Pick<InsightInputs, 'ranks' | 'keywords' | 'locations'>): Finding[] {
  const names = new Map(inputs.keywords.map((k) => [k.id, k.keyword]))
  const findings: Finding[] = []
  for (const series of rankSeries(inputs.ranks)) {
    const keyword = names.get(series.keyword_id)
    if (keyword === undefined) continue // a deleted keyword raises nothing
    const [latest, ...before] = series.rows
    const earlier = before.filter((r) => r.position !== null)
    if (!latest || earlier.length === 0) continue
    const reference = earlier.reduce((best, r) => (r.position! < best.position! ? r : best))
    const was = reference.position!
    const now = latest.position ?? UNRANKED
    const drop = now - was
    const leftTop10 = was <= TOP_10 && now > TOP_10
    if (drop < RANK_DROP_POSITIONS && !leftTop10) continue
    const where = whereSeen(series, inputs.locations)
    findings.push({
      insight_type: 'rank_drop',
      source: 'ranks',
      natural_key: `rank_drop:${series.keyword_id}:${series.location_id ?? 0}:${series.device}`,
      severity: leftTop10 || was <= 3 || latest.position === null ? 'high' : 'medium',
      summary: `"${keyword}" fell from ${positionText(was)} to ${positionText(latest.position)} (${where})`,
      keyword_id: series.keyword_id,
      page_id: latest.page_id ?? reference.page_id,
      evidence: {
        keyword,
        location_id: series.location_id,
        device: series.device,
        position: latest.position,
        date: latest.date,
        url: latest.url,
        previous_position: was,
        previous_date: reference.date,
        previous_url: reference.url,
        positions_lost: Math.min(drop, UNRANKED - was),
        left_top_10: leftTop10,
      },
    })
  }
  return findings
}
