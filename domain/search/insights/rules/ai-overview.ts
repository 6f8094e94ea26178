import type { Finding } from '../kinds.js'
import type { InsightInputs } from '../inputs.js'
import { positionText, rankSeries, whereSeen } from './series.js'

/**
 * ai_overview_without_client: the latest check of a keyword (in any location or device) showed Google's AI
 * Overview and the overview cited none of the client's pages: the answer above the results is built from
 * others. High when the client ranks on page one there (the overview takes clicks from a result it already
 * earned), medium otherwise. One insight per keyword, with every SERP it was seen on.
 */
export function aiOverviewFindings(inputs: Pick<InsightInputs, 'ranks' | 'keywords' | 'locations'>): Finding[] {
  const names = new Map(inputs.keywords.map((k) => [k.id, k.keyword]))
  const byKeyword = new Map<
    number,
    { where: string; location_id: number | null; device: string; date: string; position: number | null }[]
  >()
  for (const series of rankSeries(inputs.ranks)) {
    const latest = series.rows[0]!
    if (!latest.serp_features.ai_overview || latest.serp_features.ai_overview_cites_client) continue
    const seen = byKeyword.get(series.keyword_id) ?? []
    seen.push({
      where: whereSeen(series, inputs.locations),
      location_id: series.location_id,
      device: series.device,
      date: latest.date,
      position: latest.position,
    })
    byKeyword.set(series.keyword_id, seen)
  }
  const findings: Finding[] = []
  for (const [keywordId, seen] of [...byKeyword.entries()].sort(([a], [b]) => a - b)) {
    const keyword = names.get(keywordId)
    if (keyword === undefined) continue
    const ranked = seen.map((s) => s.position).filter((p): p is number => p !== null)
    const best = ranked.length > 0 ? Math.min(...ranked) : null
    findings.push({
      insight_type: 'ai_overview_without_client',
      source: 'ranks',
      natural_key: `ai_overview_without_client:${keywordId}`,
      severity: best !== null && best <= 10 ? 'high' : 'medium',
      summary: `Google shows an AI Overview for "${keyword}" that does not cite the client (${seen.map((s) => s.where).join('; ')}; organic ${positionText(best)})`,
      keyword_id: keywordId,
      page_id: null,
      evidence: {
        keyword,
        best_position: best,
        serps: seen.map(({ location_id, device, date, position }) => ({ location_id, device, date, position })),
      },
    })
  }
  return findings
}
