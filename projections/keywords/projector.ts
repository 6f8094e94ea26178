import { occurredAt, orgIdOf, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'

/**
 * keywords: one row per keyword, deleted ones included (status deleted, deleted_at set). Every write is
 * idempotent: an insert that finds its row does nothing, updates set absolute values.
 */
export const keywordsProjector: Projector = eachEvent({
  name: 'keywords',
  handlers: {
    async KeywordAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('keywords')
        .values({
          id: d.keyword_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          keyword: d.keyword,
          keyword_key: d.keyword_key,
          source: d.source,
          service: d.service,
          location: d.location,
          status: 'active',
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async KeywordDeleted(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('keywords')
        .set({ status: 'deleted', deleted_at: at, updated_at: at })
        .where('id', '=', event.data.keyword_id)
        .execute()
    },
    async KeywordRestored(db, event) {
      await db
        .updateTable('keywords')
        .set({ status: 'active', deleted_at: null, source: event.data.source, updated_at: occurredAt(event) })
        .where('id', '=', event.data.keyword_id)
        .execute()
    },
  },
})
