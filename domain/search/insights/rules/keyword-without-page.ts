import type { Finding } from '../kinds.js'
import type { InsightInputs } from '../inputs.js'
import { rankSeries } from './series.js'

/**
 * keyword_without_page: an active keyword no page is associated with, so no page is meant to rank for it.
 * When one of the client's pages already ranks for it (the latest rank rows), the evidence names that page
 * as the one to associate: the quickest fix. High when the keyword ranks on page one without a page meant
 * for it (traffic at stake), medium otherwise.
 */
export function keywordWithoutPageFindings(inputs: Pick<InsightInputs, 'keywords' | 'associations' | 'ranks' | 'pages'>): Finding[] {
  const served = new Set(inputs.associations.map((a) => a.keyword_id))
  const pages = new Map(inputs.pages.map((p) => [p.id, p]))
  // The best latest position per keyword, and the page that holds it.
  const best = new Map<number, { position: number; page_id: number | null; url: string | null }>()
  for (const series of rankSeries(inputs.ranks)) {
    const latest = series.rows[0]!
    if (latest.position === null) continue
    const current = best.get(series.keyword_id)
    if (!current || latest.position < current.position) {
      best.set(series.keyword_id, { position: latest.position, page_id: latest.page_id, url: latest.url })
    }
  }
  const findings: Finding[] = []
  for (const keyword of inputs.keywords) {
    if (served.has(keyword.id)) continue
    const ranking = best.get(keyword.id)
    const suggested = ranking?.page_id !== undefined && ranking.page_id !== null ? pages.get(ranking.page_id) : undefined
    findings.push({
      insight_type: 'keyword_without_page',
      source: 'crawl',
      natural_key: `keyword_without_page:${keyword.id}`,
      severity: ranking && ranking.position <= 10 ? 'high' : 'medium',
      summary: suggested
        ? `"${keyword.keyword}" has no page; ${suggested.url} already ranks #${ranking!.position} for it`
        : `"${keyword.keyword}" has no page meant to rank for it`,
      keyword_id: keyword.id,
      page_id: suggested?.id ?? null,
      evidence: {
        keyword: keyword.keyword,
        best_position: ranking?.position ?? null,
        ranking_url: ranking?.url ?? null,
        suggested_page_id: suggested?.id ?? null,
        suggested_page_url: suggested?.url ?? null,
      },
    })
  }
  return findings
}
