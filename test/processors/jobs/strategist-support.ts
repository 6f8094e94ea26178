/**
 * Seeding for the strategist tests: open SEO insights recorded on the client's insight stream (as a refresh
 * records them: the insight set's RefreshInsights decision with the findings given), AI Visibility tracker
 * items (the tracker's TrackCapture decision), and the month's items read back from the log.
 */
import { handleCommand, systemContext } from '../../../commands/command-handler.js'
import { trackCapture } from '../../../commands/aeo/tracker.js'
import { loadClientMonth } from '../../../commands/planning/action-items.js'
import { liveItems } from '../../../domain/planning/action-items/client-month.js'
import { seoInsightSet } from '../../../domain/search/insights/insight-set.js'
import type { Finding } from '../../../domain/search/insights/kinds.js'
import type { TestSystem } from '../../support/system.js'
import { readModelsAt } from '../../support/read-models.js'

const context = systemContext('test-seed')

export const finding = (natural_key: string, over: Partial<Finding> & Pick<Finding, 'insight_type'>): Finding => ({
  source: 'ranks',
  natural_key,
  severity: 'medium',
  summary: `finding ${natural_key}`,
  keyword_id: null,
  page_id: null,
  evidence: {},
  ...over,
})

/** The client's open insights are exactly `findings` after this (a refresh resolves what it no longer finds). */
export async function recordInsights(ts: TestSystem, orgId: number, clientId: number, findings: readonly Finding[], readAt: string) {
  const outcome = await handleCommand(ts.system.write, {
    aggregate: seoInsightSet,
    id: clientId,
    command: {
      type: 'RefreshInsights',
      client_id: clientId,
      findings,
      new_ids: await ts.system.write.ids.nextMany('seo_insight', findings.length),
      read_at: readAt,
    },
    context,
    orgId,
  })
  await readModelsAt(ts, outcome.position)
}

/** Open tracker items from one capture (ids allocated; the capture is only a reference on the item's hits). */
export async function trackItems(
  ts: TestSystem,
  orgId: number,
  clientId: number,
  items: readonly { item_key: string; tier: 'A' | 'B' | 'C' | 'X'; title: string }[],
  captureId = 1,
) {
  const outcome = await trackCapture(ts.system.write, context, {
    clientId,
    orgId,
    captureId,
    queryId: 1,
    engine: 'claude',
    month: '2026-11',
    scorecard: {},
    findings: items.map((i) => ({ ...i, evidence: `${i.title}: seen in the answer` })),
  })
  await readModelsAt(ts, outcome.position)
}

/** The month's live items, as the log holds them. */
export async function monthItems(ts: TestSystem, clientId: number, month: string) {
  const state = await loadClientMonth(ts.system.write, clientId, month)
  return { closed: state.closed, items: liveItems(state) }
}
