import { sql, type Selectable } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { AeoItemsTable } from '../tables.js'

/** Reads of the tracker (aeo_items with their hits), for the tracker RPCs and the reports part. */
export type ItemRow = Selectable<AeoItemsTable>

export interface ItemView {
  id: number
  client_id: number
  item_key: string
  tier: 'A' | 'B' | 'C' | 'X'
  title: string
  status: string
  evidence: string
  note: string | null
  /** Questions whose captures found the item, ascending. */
  query_ids: number[]
  /** Captures that found the item, per month, ascending by month. */
  hits: { month: string; count: number }[]
  hit_count: number
  first_month: string
  last_month: string
  created_at: string
  updated_at: string
}

/** tier A → X, then title (then id, so equal titles keep a stable order). */
const TIER_ORDER = sql<number>`array_position(array['A','B','C','X']::text[], tier)`

async function views(db: ReadDb, rows: readonly ItemRow[]): Promise<ItemView[]> {
  if (rows.length === 0) return []
  const hits = await db
    .selectFrom('aeo_item_hits')
    .select(['item_id', 'query_id', 'month', sql<number>`count(*)::int`.as('n')])
    .where(
      'item_id',
      'in',
      rows.map((r) => r.id),
    )
    .groupBy(['item_id', 'query_id', 'month'])
    .execute()
  const byItem = new Map<number, { queries: Set<number>; months: Map<string, number> }>()
  for (const h of hits) {
    const entry = byItem.get(h.item_id) ?? { queries: new Set<number>(), months: new Map<string, number>() }
    entry.queries.add(h.query_id)
    entry.months.set(h.month, (entry.months.get(h.month) ?? 0) + h.n)
    byItem.set(h.item_id, entry)
  }
  return rows.map((r) => {
    const entry = byItem.get(r.id)
    const months = [...(entry?.months ?? new Map<string, number>())].sort(([a], [b]) => a.localeCompare(b))
    return {
      id: r.id,
      client_id: r.client_id,
      item_key: r.item_key,
      tier: r.tier,
      title: r.title,
      status: r.status,
      evidence: r.evidence,
      note: r.note,
      query_ids: [...(entry?.queries ?? [])].sort((a, b) => a - b),
      hits: months.map(([month, count]) => ({ month, count })),
      hit_count: months.reduce((sum, [, count]) => sum + count, 0),
      first_month: r.first_month,
      last_month: r.last_month,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    }
  })
}

/** A client's items, tier A → X then title; optionally of one status (or several). */
export async function itemsForClient(db: ReadDb, clientId: number, statuses?: readonly string[]): Promise<ItemView[]> {
  let query = db.selectFrom('aeo_items').selectAll().where('client_id', '=', clientId)
  if (statuses !== undefined) {
    if (statuses.length === 0) return []
    query = query.where('status', 'in', [...statuses])
  }
  return views(db, await query.orderBy(TIER_ORDER).orderBy('title').orderBy('id').execute())
}

/** The item if the caller may see it (orgId null: any organization); else not_found, same as missing. */
export async function visibleItem(db: ReadDb, orgId: number | null, itemId: number): Promise<ItemView> {
  let query = db.selectFrom('aeo_items').selectAll().where('id', '=', itemId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('item', itemId)
  return (await views(db, [row]))[0]!
}

export async function itemByKey(db: ReadDb, clientId: number, itemKey: string): Promise<ItemView | null> {
  const row = await db
    .selectFrom('aeo_items')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('item_key', '=', itemKey)
    .executeTakeFirst()
  return row ? (await views(db, [row]))[0]! : null
}

/** Open work per tier (open and in_progress), for summaries. */
export async function openItemCountsByTier(db: ReadDb, clientId: number): Promise<Record<'A' | 'B' | 'C' | 'X', number>> {
  const rows = await db
    .selectFrom('aeo_items')
    .select(['tier', sql<number>`count(*)::int`.as('n')])
    .where('client_id', '=', clientId)
    .where('status', 'in', ['open', 'in_progress'])
    .groupBy('tier')
    .execute()
  const counts = { A: 0, B: 0, C: 0, X: 0 }
  for (const r of rows) counts[r.tier] = r.n
  return counts
}
