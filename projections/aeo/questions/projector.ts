import { applyHandler, type EventHandlers } from '../../each-event.js'
import { occurredAt, orgIdOf, type EventOf, type Projector } from '../../projector.js'
import { inChunks, inStretches } from '../../stretches.js'
import type { ReadDb } from '../../tables.js'

/** AeoQuestionAdded × n, in log order: one insert; a question already there (a redelivery) stays as it is. */
async function addQuestions(db: ReadDb, events: readonly EventOf<'AeoQuestionAdded'>[]): Promise<void> {
  // 14 parameters a row.
  for (const chunk of inChunks(events, 2000)) await insertQuestions(db, chunk)
}

async function insertQuestions(db: ReadDb, events: readonly EventOf<'AeoQuestionAdded'>[]): Promise<void> {
  await db
    .insertInto('aeo_queries')
    .values(
      events.map((event) => {
        const d = event.data
        const at = occurredAt(event)
        return {
          id: d.query_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
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
        }
      }),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

/** The writes of the other events, one at a time. */
const otherWrites: EventHandlers = {
  async AeoQuestionUpdated(db, event) {
    const {
      client_id: _client,
      query_id,
      ...changes
    } = event.data as {
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
}

/**
 * aeo_queries: one row per live question. Deleted and merged questions leave the table (their captures,
 * runs and items are re-pointed or kept by their own projectors). Every write is idempotent: an insert that
 * finds its row does nothing, an update sets absolute values, a delete of a missing row deletes nothing.
 */
export const aeoQuestionsProjector: Projector = {
  name: 'aeo_questions',
  // Standalone: it reads only its own table, and only the sandbox reset (listed after it) touches it.
  standalone: true,
  handles: ['AeoQuestionAdded', 'AeoQuestionUpdated', 'AeoQuestionDeleted', 'AeoQuestionsMerged'],
  // A question set is added many questions at a time: each stretch of additions is one insert (stretches.ts).
  async apply(db, events) {
    await inStretches(
      events,
      'AeoQuestionAdded',
      (stretch) => addQuestions(db, stretch),
      (event) => applyHandler(otherWrites, db, event),
    )
  },
}
