import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * push_failures: one row per failure. A record inserts (redelivered: the row is already there); a resolution
 * sets the listed rows' resolution to the event's values, so a redelivery writes the same again.
 */
const pushFailuresProjector: Projector = eachEvent({
  name: 'publishing_push_failures',
  handlers: {
    async PushFailureRecorded(db, event) {
      const d = event.data
      await db
        .insertInto('push_failures')
        .values({
          id: d.failure_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          operation: d.operation,
          category: d.category,
          error: d.error,
          edit_id: d.edit_id,
          target: d.target,
          http_status: d.http_status,
          attempts: d.attempts,
          occurred_at: occurredAt(event),
          resolved_at: null,
          resolved_note: null,
          resolved_auto: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async PushFailuresResolved(db, event) {
      const d = event.data
      await db
        .updateTable('push_failures')
        .set({ resolved_at: occurredAt(event), resolved_note: d.note, resolved_auto: d.auto })
        .where('id', 'in', d.failure_ids)
        .where('client_id', '=', d.client_id)
        .execute()
    },
  },
})

/** The push failures sub-area's projectors. */
export const pushFailuresProjectors: readonly Projector[] = [pushFailuresProjector]
