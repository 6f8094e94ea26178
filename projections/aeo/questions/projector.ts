import type { Projector } from '../../projector.js'
import { occurredAt } from '../../projector.js'

/**
 * aeo_queries: one row per live question. Deleted and merged questions leave the table (their captures,
 * runs and items are re-pointed or kept by their own projectors). Every write is idempotent: an insert that
 * finds its row does nothing, an update sets absolute values, a delete of a missing row deletes nothing.
 */
export const aeoQuestionsProjector: Projector = {
  name: 'aeo_questions',
  handlers: {
    async AeoQuestionAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('aeo_queries')
        .values({
          id: d.query_id,
          client_id: d.client_id,
          org_id: event.metadata.org_id,
          prompt: d.prompt,
          prompt_key: d.prompt_key,
          engine: d.engine,
          service: d.service,
          location: d.location,
          kind: d.kind,
          priority: d.priority,
          active: d.active,
          source: d.source,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async AeoQuestionUpdated(db, event) {
      const { client_id: _client, query_id, ...changes } = event.data as {
        client_id: number
        query_id: number
        active?: boolean
        priority?: number
        prompt?: string
        prompt_key?: string
        service?: string
        kind?: string
      }
      await db
        .updateTable('aeo_queries')
        .set({ ...changes, updated_at: occurredAt(event) })
        .where('id', '=', query_id)
        .execute()
    },
    async AeoQuestionDeleted(db, event) {
      await db.deleteFrom('aeo_queries').where('id', '=', event.data.query_id).execute()
    },
    async AeoQuestionsMerged(db, event) {
      const merged = event.data.merged_ids as number[]
      await db.deleteFrom('aeo_queries').where('id', 'in', merged).execute()
    },
  },
}
