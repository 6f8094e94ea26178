import { sql } from 'kysely'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import type { Projector } from '../projector.js'
import { occurredAt } from '../projector.js'
import type { ReadDb } from '../tables.js'
import { nextStatusTimes, type StatusTimes } from '../../domain/clients/values.js'
import { applyClientEvents } from './batch.js'

const statusColumns = (times: StatusTimes) => ({ deactivated_at: times.deactivatedAt, deleted_at: times.deletedAt })

/** Any change to a client's stream moves its updated_at (never backwards, so a replay is harmless). */
async function touch(db: ReadDb, event: RecordedEvent): Promise<void> {
  const at = occurredAt(event)
  await db
    .updateTable('clients')
    .set({ updated_at: sql`greatest(updated_at, ${at})` })
    .where('id', '=', event.data.client_id)
    .execute()
}

/**
 * The handlers below are the definition, event by event; `applyBatch` (batch.ts) folds a whole batch with
 * the same semantics in one statement per table, and is what the runner and the rebuild use.
 */
export const clientsProjector: Projector = {
  name: 'clients',
  // Standalone: it reads only its own tables, and only the sandbox reset (listed after it) touches them.
  standalone: true,
  applyBatch: applyClientEvents,
  handlers: {
    async ClientAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('clients')
        .values({
          id: d.client_id,
          org_id: d.org_id,
          name: d.name,
          website_url: d.website_url,
          slug: d.slug,
          status: d.status,
          created_at: at,
          updated_at: at,
          ...statusColumns(nextStatusTimes({ deactivatedAt: null, deletedAt: null }, null, d.status, at.toISOString())),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async ClientUpdated(db, event) {
      const { client_id, ...changes } = event.data as { client_id: number; name?: string; website_url?: string; slug?: string }
      if (Object.keys(changes).length > 0) await db.updateTable('clients').set(changes).where('id', '=', client_id).execute()
      await touch(db, event)
    },
    async ClientStatusChanged(db, event) {
      const row = await db
        .selectFrom('clients')
        .select(['deactivated_at', 'deleted_at'])
        .where('id', '=', event.data.client_id)
        .executeTakeFirst()
      if (!row) return
      const current = { deactivatedAt: row.deactivated_at?.toISOString() ?? null, deletedAt: row.deleted_at?.toISOString() ?? null }
      const times = nextStatusTimes(current, event.data.from, event.data.to, occurredAt(event).toISOString())
      await db
        .updateTable('clients')
        .set({ status: event.data.to, ...statusColumns(times) })
        .where('id', '=', event.data.client_id)
        .execute()
      await touch(db, event)
    },
    async ClientServiceAdded(db, event) {
      const d = event.data
      await db
        .insertInto('client_services')
        .values({
          id: d.service_id,
          client_id: d.client_id,
          org_id: event.metadata.org_id,
          name: d.name,
          description: d.description,
          created_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      await touch(db, event)
    },
    async ClientLocationAdded(db, event) {
      const d = event.data
      await db
        .insertInto('client_locations')
        .values({
          id: d.location_id,
          client_id: d.client_id,
          org_id: event.metadata.org_id,
          name: d.name,
          city: d.city,
          state: d.state,
          country: d.country,
          created_at: occurredAt(event),
          removed_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      await touch(db, event)
    },
    async ClientLocationsRemoved(db, event) {
      const ids = event.data.location_ids as number[]
      if (ids.length > 0) {
        await db
          .updateTable('client_locations')
          .set({ removed_at: occurredAt(event) })
          .where('id', 'in', ids)
          .where('removed_at', 'is', null)
          .execute()
      }
      await touch(db, event)
    },
    async ClientSettingSet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('client_settings')
        .values({ client_id: d.client_id, key: d.key, org_id: event.metadata.org_id, value: d.value, updated_at: at })
        .onConflict((oc) => oc.columns(['client_id', 'key']).doUpdateSet({ value: d.value, updated_at: at }))
        .execute()
      await touch(db, event)
    },
  },
}
