import { sql } from 'kysely'
import type { AeoItemInput, InsightInput } from '../../../domain/planning/strategist/candidates.js'
import type { Severity } from '../../../domain/planning/strategist/impact.js'
import { itemsForClient } from '../../aeo/tracker/queries.js'
import { pagesForClient } from '../../pages/queries.js'
import { seoInsightsOfClient } from '../../search/insights/queries.js'
import type { ReadDb } from '../../tables.js'

/**
 * The read side of the strategist: a client's open findings as the pure planner takes them, and the earlier
 * months of its action items that are still open. Reads only (the job acts by commands).
 */

/** More open insights than this is a backlog, not a month: the most severe, newest first, are read. */
export const MAX_INSIGHTS_READ = 500

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

export async function insightInputs(read: ReadDb, clientId: number): Promise<InsightInput[]> {
  const insights = await seoInsightsOfClient(read, clientId, { status: 'open' }, { limit: MAX_INSIGHTS_READ, offset: 0 })
  if (insights.length === 0) return []
  const pages = new Map((await pagesForClient(read, clientId, false)).map((p) => [p.id, p.url]))
  const keywordIds = [...new Set(insights.flatMap((i) => (i.keyword_id === null ? [] : [i.keyword_id])))]
  // The keyword's largest recorded monthly volume over its locations (keyword_metrics is per org × keyword key).
  const volumes = new Map<number, number>()
  if (keywordIds.length > 0) {
    const rows = await read
      .selectFrom('keywords as k')
      .innerJoin('keyword_metrics as m', (join) => join.onRef('m.org_id', '=', 'k.org_id').onRef('m.keyword_key', '=', 'k.keyword_key'))
      .select(['k.id as id', sql<number | null>`max(m.search_volume)`.as('volume')])
      .where('k.id', 'in', keywordIds)
      .groupBy('k.id')
      .execute()
    for (const r of rows) if (r.volume !== null) volumes.set(r.id, Number(r.volume))
  }
  return insights.map((i) => {
    const e = i.evidence
    const pageUrl =
      (i.page_id === null ? undefined : pages.get(i.page_id)) ??
      (text(e.url) || text(e.page_url) || text(e.suggested_page_url) || text(e.ranking_url) || text(e.previous_url))
    return {
      id: i.id,
      insight_type: i.insight_type,
      severity: i.severity as Severity,
      summary: i.summary,
      page_url: pageUrl,
      evidence: e,
      search_volume: i.keyword_id === null ? null : (volumes.get(i.keyword_id) ?? null),
    }
  })
}

/** Open tracker items (open and in progress: work not done yet). */
export async function aeoItemInputs(read: ReadDb, clientId: number): Promise<AeoItemInput[]> {
  const items = await itemsForClient(read, clientId, ['open', 'in_progress'])
  return items.map((i) => ({ id: i.id, tier: i.tier, title: i.title, evidence: i.evidence, hit_count: i.hit_count }))
}

/** Months before `month` that hold live items and are not closed, oldest first (read models). */
export async function openMonthsBefore(read: ReadDb, clientId: number, month: string): Promise<string[]> {
  const rows = await read
    .selectFrom('action_items')
    .select('month')
    .distinct()
    .where('client_id', '=', clientId)
    .where('month', 'is not', null)
    .where('month', '<', month)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('action_item_months_closed as c')
            .select('c.month')
            .whereRef('c.client_id', '=', 'action_items.client_id')
            .whereRef('c.month', '=', 'action_items.month'),
        ),
      ),
    )
    .orderBy('month')
    .execute()
  return rows.flatMap((r) => (r.month === null ? [] : [r.month]))
}

export async function clientName(read: ReadDb, clientId: number): Promise<string> {
  const row = await read.selectFrom('clients').select('name').where('id', '=', clientId).executeTakeFirst()
  return row?.name ?? `client ${clientId}`
}

/**
 * Every source key the client's items hold, in any month (deleted items' too): a finding gets one item,
 * ever. An insight that was worked on (done, skipped, carried on under a carry key) is not planned again
 * while it stays open; one that is resolved and comes back is a new insight with a new id, so a new key.
 */
export async function heldSourceKeys(read: ReadDb, clientId: number): Promise<Set<string>> {
  const rows = await read
    .selectFrom('action_items')
    .select('source_key')
    .distinct()
    .where('client_id', '=', clientId)
    .where('source_key', 'is not', null)
    .execute()
  return new Set(rows.flatMap((r) => (r.source_key === null ? [] : [r.source_key])))
}
