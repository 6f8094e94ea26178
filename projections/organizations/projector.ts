import type { RecordedEvent } from '../../commands/event-store/port.js'
import type { Projector } from '../projector.js'
import { occurredAt } from '../projector.js'
import type { ReadDb } from '../tables.js'
import { unnestRows } from '../unnest.js'

/** The batch form: every new organization in one insert (the first event for an id wins, as a conflict would). */
async function applyOrganizationEvents(db: ReadDb, events: readonly RecordedEvent[]): Promise<void> {
  const rows = new Map<number, { id: number; name: string; at: Date }>()
  for (const event of events) {
    if (event.type !== 'OrganizationCreated' || rows.has(event.data.org_id)) continue
    rows.set(event.data.org_id, { id: event.data.org_id, name: event.data.name, at: occurredAt(event) })
  }
  if (rows.size === 0) return
  const list = [...rows.values()]
  await db
    .insertInto('organizations')
    .columns(['id', 'name', 'created_at', 'updated_at'])
    .expression(
      unnestRows([
        [list.map((r) => r.id), 'bigint'],
        [list.map((r) => r.name), 'text'],
        [list.map((r) => r.at), 'timestamptz'],
        [list.map((r) => r.at), 'timestamptz'],
      ]),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

export const organizationsProjector: Projector = {
  name: 'organizations',
  applyBatch: applyOrganizationEvents,
  handlers: {
    async OrganizationCreated(db, event) {
      const at = occurredAt(event)
      await db
        .insertInto('organizations')
        .values({ id: event.data.org_id, name: event.data.name, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
  },
}
