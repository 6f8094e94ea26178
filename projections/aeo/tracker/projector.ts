import { occurredAt, orgIdOf, type EventOf, type Projector } from '../../projector.js'
import { sql } from 'kysely'
import { applyHandler, typesOf, type EventHandlers } from '../../each-event.js'
import { executeWrite } from '../../live-write.js'
import { inStretches } from '../../stretches.js'
import type { ReadDb } from '../../tables.js'
import { unnestRelation, unnestRows } from '../../unnest.js'

type Opened = { item_id: number; item_key: string; tier: 'A' | 'B' | 'C' | 'X'; title: string; evidence: string }

/**
 * AeoCaptureTracked × n, in log order: the items they opened (one insert, in order, so an item key opened
 * twice keeps the first as one by one would), every hit, then each touched item's months and time widened
 * once by the least and greatest over all its hits, which is what widening them event by event leaves.
 * Each statement takes its rows as one array per column (unnest.ts): a VALUES list costs a parameter per
 * cell, which for a rebuild page's thousands of hits was most of the projector's time on both sides.
 */
async function track(db: ReadDb, events: readonly EventOf<'AeoCaptureTracked'>[]): Promise<void> {
  const items = events.flatMap((event) => {
    const d = event.data
    const at = occurredAt(event)
    return (d.opened as Opened[]).map((o) => ({ ...o, client_id: d.client_id, org_id: orgIdOf(event), month: d.month, at }))
  })
  const hits = events.flatMap((event) => {
    const d = event.data
    const at = occurredAt(event)
    const carried: { item_id: number }[] = d.carried_items ?? []
    return [...(d.opened as Opened[]), ...carried].map(({ item_id }) => ({
      item_id,
      capture_id: d.capture_id,
      client_id: d.client_id,
      query_id: d.query_id,
      engine: d.engine,
      month: d.month,
      at,
    }))
  })
  if (items.length > 0) {
    // Either key: the id (a redelivery) or (client_id, item_key) (a replay over a later item with the key).
    await executeWrite(
      db,
      db
        .insertInto('aeo_items')
        .columns([
          'id',
          'client_id',
          'org_id',
          'item_key',
          'tier',
          'title',
          'status',
          'evidence',
          'note',
          'first_month',
          'last_month',
          'created_at',
          'updated_at',
        ])
        .expression(
          unnestRows([
            [items.map((i) => i.item_id), 'bigint'],
            [items.map((i) => i.client_id), 'bigint'],
            [items.map((i) => i.org_id), 'bigint'],
            [items.map((i) => i.item_key), 'text'],
            [items.map((i) => i.tier), 'text'],
            [items.map((i) => i.title), 'text'],
            [items.map(() => 'open'), 'text'],
            [items.map((i) => i.evidence), 'text'],
            [items.map(() => null), 'text'],
            [items.map((i) => i.month), 'text'],
            [items.map((i) => i.month), 'text'],
            [items.map((i) => i.at), 'timestamptz'],
            [items.map((i) => i.at), 'timestamptz'],
          ]),
        )
        .onConflict((oc) => oc.doNothing()),
    )
  }
  if (hits.length === 0) return
  await executeWrite(
    db,
    db
      .insertInto('aeo_item_hits')
      .columns(['item_id', 'capture_id', 'client_id', 'query_id', 'engine', 'month'])
      .expression(
        unnestRows([
          [hits.map((h) => h.item_id), 'bigint'],
          [hits.map((h) => h.capture_id), 'bigint'],
          [hits.map((h) => h.client_id), 'bigint'],
          [hits.map((h) => h.query_id), 'bigint'],
          [hits.map((h) => h.engine), 'text'],
          [hits.map((h) => h.month), 'text'],
        ]),
      )
      .onConflict((oc) => oc.columns(['item_id', 'capture_id']).doNothing()),
  )
  // Each item once, with the least and greatest month and the latest time over its hits in the stretch.
  const widened = new Map<number, { first: string; last: string; at: Date }>()
  for (const h of hits) {
    const w = widened.get(h.item_id)
    if (!w) widened.set(h.item_id, { first: h.month, last: h.month, at: h.at })
    else {
      if (h.month < w.first) w.first = h.month
      if (h.month > w.last) w.last = h.month
      if (h.at > w.at) w.at = h.at
    }
  }
  const ids = [...widened.keys()]
  const spans = [...widened.values()]
  await executeWrite(
    db,
    db
      .updateTable('aeo_items')
      .from(
        unnestRelation<{ id: number; first: string; last: string; at: Date }, 'w'>('w', [
          ['id', ids, 'bigint'],
          ['first', spans.map((w) => w.first), 'text'],
          ['last', spans.map((w) => w.last), 'text'],
          ['at', spans.map((w) => w.at), 'timestamptz'],
        ]),
      )
      .set({
        first_month: sql`least(aeo_items.first_month, w.first)`,
        last_month: sql`greatest(aeo_items.last_month, w.last)`,
        updated_at: sql`greatest(aeo_items.updated_at, w.at)`,
      })
      .whereRef('aeo_items.id', '=', 'w.id'),
  )
}

/** The writes of the events other than AeoCaptureTracked, one at a time. */
const otherWrites: EventHandlers = {
  async AeoItemStatusChanged(db, event) {
    const d = event.data
    await db
      .updateTable('aeo_items')
      .set({ status: d.to, note: d.note, updated_at: sql`greatest(updated_at, ${occurredAt(event)})` })
      .where('id', '=', d.item_id)
      .execute()
  },
  async AeoItemsDeleted(db, event) {
    const ids: number[] = event.data.item_ids
    if (ids.length === 0) return
    await db.deleteFrom('aeo_item_hits').where('item_id', 'in', ids).execute()
    await db.deleteFrom('aeo_items').where('id', 'in', ids).execute()
  },
  async AeoTrackerRebuilt(db, event) {
    const d = event.data
    const at = occurredAt(event)
    type RebuiltItem = {
      item_id: number
      item_key: string
      tier: 'A' | 'B' | 'C' | 'X'
      title: string
      evidence: string
      status: string
      note: string | null
      hits: { capture_id: number; query_id: number; engine: string; month: string }[]
    }
    const items: RebuiltItem[] = d.items
    const ids = items.map((i) => i.item_id)
    await db.deleteFrom('aeo_item_hits').where('client_id', '=', d.client_id).execute()
    let gone = db.deleteFrom('aeo_items').where('client_id', '=', d.client_id)
    if (ids.length > 0) gone = gone.where('id', 'not in', ids)
    await gone.execute()
    if (items.length === 0) return
    const months = (i: RebuiltItem) => i.hits.map((h) => h.month).sort()
    await db
      .insertInto('aeo_items')
      .values(
        items.map((i) => ({
          id: i.item_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          item_key: i.item_key,
          tier: i.tier,
          title: i.title,
          status: i.status,
          evidence: i.evidence,
          note: i.note,
          first_month: months(i)[0] ?? '',
          last_month: months(i).at(-1) ?? '',
          created_at: at,
          updated_at: at,
        })),
      )
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          item_key: eb.ref('excluded.item_key'),
          tier: eb.ref('excluded.tier'),
          title: eb.ref('excluded.title'),
          status: eb.ref('excluded.status'),
          evidence: eb.ref('excluded.evidence'),
          note: eb.ref('excluded.note'),
          first_month: eb.ref('excluded.first_month'),
          last_month: eb.ref('excluded.last_month'),
          updated_at: sql`greatest(aeo_items.updated_at, excluded.updated_at)`,
        })),
      )
      .execute()
    const hits = items.flatMap((i) =>
      i.hits.map((h) => ({
        item_id: i.item_id,
        capture_id: h.capture_id,
        client_id: d.client_id,
        query_id: h.query_id,
        engine: h.engine,
        month: h.month,
      })),
    )
    for (let start = 0; start < hits.length; start += 5000) {
      await db
        .insertInto('aeo_item_hits')
        .values(hits.slice(start, start + 5000))
        .onConflict((oc) => oc.columns(['item_id', 'capture_id']).doNothing())
        .execute()
    }
  },
  async AeoQuestionsMerged(db, event) {
    const d = event.data
    await db
      .updateTable('aeo_item_hits')
      .set({ query_id: d.canonical_id })
      .where('client_id', '=', d.client_id)
      .where('query_id', 'in', d.merged_ids)
      .execute()
  },
}

/**
 * aeo_items and aeo_item_hits: the client's tracker items, and one hit per (item, capture that found it).
 * Every write is keyed by ids carried in the event (never looked up by item_key), so a replayed event
 * cannot attach to an item opened later under the same key.
 * Each stretch of tracked captures in a batch is a few statements (see track).
 */
export const aeoTrackerProjector: Projector = {
  name: 'aeo_tracker',
  // Standalone: it reads only its own tables, and only the sandbox reset (listed after it) touches them.
  standalone: true,
  handles: ['AeoCaptureTracked', ...typesOf(otherWrites)],
  // Each stretch of AeoCaptureTracked at once (see stretches.ts), any other event by its own write.
  async apply(db, events) {
    await inStretches(
      events,
      'AeoCaptureTracked',
      (stretch) => track(db, stretch),
      (event) => applyHandler(otherWrites, db, event),
    )
  },
}
