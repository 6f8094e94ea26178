import { sql } from 'kysely'
import type { Projector } from '../../projector.js'
import { occurredAt } from '../../projector.js'

/**
 * aeo_items and aeo_item_hits: the client's tracker items, and one hit per (item, capture that found it).
 * Every write is keyed by ids carried in the event (never looked up by item_key), so a replayed event
 * cannot attach to an item opened later under the same key.
 */
export const aeoTrackerProjector: Projector = {
  name: 'aeo_tracker',
  handlers: {
    async AeoCaptureTracked(db, event) {
      const d = event.data
      const at = occurredAt(event)
      if (d.opened.length > 0) {
        await db
          .insertInto('aeo_items')
          .values(
            d.opened.map((o: { item_id: number; item_key: string; tier: 'A' | 'B' | 'C' | 'X'; title: string; evidence: string }) => ({
              id: o.item_id,
              client_id: d.client_id,
              org_id: event.metadata.org_id,
              item_key: o.item_key,
              tier: o.tier,
              title: o.title,
              status: 'open',
              evidence: o.evidence,
              note: null,
              first_month: d.month,
              last_month: d.month,
              created_at: at,
              updated_at: at,
            })),
          )
          // Either key: the id (a redelivery) or (client_id, item_key) (a replay over a later item with the key).
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
      const carried: { item_id: number }[] = d.carried_items ?? []
      const itemIds = [...d.opened.map((o: { item_id: number }) => o.item_id), ...carried.map((c) => c.item_id)]
      if (itemIds.length === 0) return
      await db
        .insertInto('aeo_item_hits')
        .values(itemIds.map((item_id) => ({ item_id, capture_id: d.capture_id, client_id: d.client_id, query_id: d.query_id, engine: d.engine, month: d.month })))
        .onConflict((oc) => oc.columns(['item_id', 'capture_id']).doNothing())
        .execute()
      await db
        .updateTable('aeo_items')
        .set({
          first_month: sql`least(first_month, ${d.month})`,
          last_month: sql`greatest(last_month, ${d.month})`,
          updated_at: sql`greatest(updated_at, ${at})`,
        })
        .where('id', 'in', itemIds)
        .execute()
    },
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
            org_id: event.metadata.org_id,
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
        i.hits.map((h) => ({ item_id: i.item_id, capture_id: h.capture_id, client_id: d.client_id, query_id: h.query_id, engine: h.engine, month: h.month })),
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
  },
}
