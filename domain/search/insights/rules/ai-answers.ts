import { nameKey } from '../../../clients/values.js'
import type { Finding } from '../kinds.js'
import type { InsightInputs } from '../inputs.js'
import { rankSeries } from './series.js'

/**
 * ai_answers_without_client: an AI Visibility question was answered at least AI_ANSWERS_MIN_CAPTURES times
 * in its latest month and no answer named the client, while the client ranks in Google's top 3 for a
 * keyword about the same service and location. Search engines already trust the client for it; AI engines
 * do not say so, which is where AI Visibility work pays first. Questions and keywords are matched by their
 * service and location (both set, compared case- and spacing-insensitively).
 */
export const AI_ANSWERS_MIN_CAPTURES = 2
export const AI_ANSWERS_TOP = 3

export function aiAnswersFindings(inputs: Pick<InsightInputs, 'aeo' | 'keywords' | 'ranks'>): Finding[] {
  const best = new Map<number, number>()
  for (const series of rankSeries(inputs.ranks)) {
    const position = series.rows[0]!.position
    if (position !== null && position < (best.get(series.keyword_id) ?? Number.POSITIVE_INFINITY)) best.set(series.keyword_id, position)
  }
  const topicOf = (service: string, location: string) =>
    service.trim() && location.trim() ? `${nameKey(service)}|${nameKey(location)}` : null
  const strong = new Map<string, { keyword_id: number; keyword: string; position: number }[]>()
  for (const keyword of inputs.keywords) {
    const topic = topicOf(keyword.service, keyword.location)
    const position = best.get(keyword.id)
    if (topic === null || position === undefined || position > AI_ANSWERS_TOP) continue
    strong.set(topic, [...(strong.get(topic) ?? []), { keyword_id: keyword.id, keyword: keyword.keyword, position }])
  }
  const findings: Finding[] = []
  for (const question of [...inputs.aeo].sort((a, b) => a.query_id - b.query_id)) {
    if (question.captures < AI_ANSWERS_MIN_CAPTURES || question.present > 0) continue
    const topic = topicOf(question.service, question.location)
    const keywords = topic === null ? undefined : strong.get(topic)
    if (!keywords) continue
    const sorted = [...keywords].sort((a, b) => a.position - b.position || a.keyword_id - b.keyword_id)
    findings.push({
      insight_type: 'ai_answers_without_client',
      source: 'aeo',
      natural_key: `ai_answers_without_client:${question.query_id}`,
      severity: 'high',
      summary: `AI engines never named the client for "${question.prompt}" in ${question.month} (${question.captures} answers), though it ranks #${sorted[0]!.position} for "${sorted[0]!.keyword}"`,
      keyword_id: sorted[0]!.keyword_id,
      page_id: null,
      evidence: {
        query_id: question.query_id,
        prompt: question.prompt,
        month: question.month,
        engines: [...question.engines],
        captures: question.captures,
        keywords: sorted,
      },
    })
  }
  return findings
}
