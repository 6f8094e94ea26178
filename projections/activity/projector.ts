import type { RecordedEvent } from '../../commands/event-store/port.js'
import type { Projector } from '../projector.js'
import { occurredAt } from '../projector.js'
import type { ReadDb } from '../tables.js'

/** Every event that belongs to an organization, as a row of its activity feed (get_org_activity). */
async function record(db: ReadDb, event: RecordedEvent): Promise<void> {
  const orgId = event.metadata?.org_id
  if (typeof orgId !== 'number') return
  const clientId = typeof event.data?.client_id === 'number' ? event.data.client_id : null
  const actor = event.metadata.actor ?? {}
  await db
    .insertInto('org_activity')
    .values({
      event_id: event.id,
      org_id: orgId,
      stream: event.stream,
      event_type: event.type,
      client_id: clientId,
      actor_kind: String(actor.kind ?? 'system'),
      actor_id: actor.id === null || actor.id === undefined ? null : String(actor.id),
      occurred_at: occurredAt(event),
      stream_revision: Number(event.revision),
      position: event.position,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute()
}

/** Handles every type: the runner calls `*` for any event. */
export const activityProjector: Projector = {
  name: 'org_activity',
  handlers: { '*': record },
}
