import { sql } from 'kysely'
import { nextStatusTimes } from '../../domain/clients/values.js'
import { occurredAt, ofTypes, orgIdOf, type ProjectedEvent } from '../projector.js'
import type { ReadDb } from '../tables.js'
import { executeWrite } from '../live-write.js'
import { unnestRelation, unnestRows } from '../unnest.js'

/**
 * The clients projector for a whole batch: the rows the batch touches are read once, the events are folded
 * over them in memory in log order, and the results are written back with one statement per table. Each
 * event means: a client, service or location is inserted if absent (the first event wins); an update or a
 * status change applies to an existing client only; every event of a client's stream moves its
 * `updated_at`, never backwards; a status change sets the status times by nextStatusTimes; removing
 * locations stamps those not removed yet; a setting's value and time are the last event's. So a redelivered
 * event changes nothing. Safe because one runner (or one rebuild) owns a schema's projection at a time,
 * inside the batch's transaction.
 */

interface ClientRowState {
  id: number
  org_id: number
  name: string
  website_url: string
  slug: string
  status: string
  created_at: Date
  updated_at: Date
  deactivated_at: Date | null
  deleted_at: Date | null
}

interface LocationState {
  removed_at: Date | null
  /** Inserted by this batch (written with the insert), or already stored (written with an update). */
  readonly row?: NewLocation
}

interface NewLocation {
  id: number
  client_id: number
  org_id: number
  name: string
  city: string
  state: string
  country: string
  created_at: Date
  removed_at: Date | null
}

interface NewService {
  id: number
  client_id: number
  org_id: number
  name: string
  description: string
  created_at: Date
}

interface SettingWrite {
  client_id: number
  key: string
  org_id: number
  value: string
  updated_at: Date
}

export const CLIENT_EVENTS = [
  'ClientAdded',
  'ClientUpdated',
  'ClientStatusChanged',
  'ClientServiceAdded',
  'ClientLocationAdded',
  'ClientLocationsRemoved',
  'ClientSettingSet',
] as const

const date = (iso: string | null) => (iso === null ? null : new Date(iso))

export async function applyClientEvents(db: ReadDb, batch: readonly ProjectedEvent[]): Promise<void> {
  const events = ofTypes(batch, CLIENT_EVENTS)
  if (events.length === 0) return

  const clientIds = [...new Set(events.map((e) => e.data.client_id))]
  // Without these, every change to `clients` in the batch is a touch, and touches commute (a greatest):
  // no need to read the rows first.
  const needsRows = events.some((e) => e.type === 'ClientAdded' || e.type === 'ClientUpdated' || e.type === 'ClientStatusChanged')
  const removedIds = [...new Set(events.flatMap((e) => (e.type === 'ClientLocationsRemoved' ? e.data.location_ids : [])))]
  const clientRows = needsRows
    ? await db.selectFrom('clients').selectAll().where(sql<boolean>`id = any(${clientIds}::bigint[])`).execute()
    : []
  const locationRows =
    removedIds.length === 0
      ? []
      : await db
          .selectFrom('client_locations')
          .select(['id', 'removed_at'])
          .where(sql<boolean>`id = any(${removedIds}::bigint[])`)
          .execute()

  const clients = new Map<number, ClientRowState>(clientRows.map((r) => [r.id, { ...r }]))
  const changedClients = new Set<number>()
  // Locations whose removal matters: those stored already and those this batch inserts.
  const locations = new Map<number, LocationState>(locationRows.map((r) => [r.id, { removed_at: r.removed_at }]))
  const newLocations = new Map<number, NewLocation>()
  const removedLocations = new Map<number, Date>()
  const newServices = new Map<number, NewService>()
  const settings = new Map<string, SettingWrite>()

  /** Latest touch per client, when the rows are not read (`needsRows` false). */
  const touches = new Map<number, Date>()
  /** `updated_at = greatest(updated_at, at)` on an existing row. */
  const touch = (clientId: number, at: Date) => {
    if (!needsRows) {
      const latest = touches.get(clientId)
      if (!latest || at.getTime() > latest.getTime()) touches.set(clientId, at)
      return
    }
    const row = clients.get(clientId)
    if (row && at.getTime() > row.updated_at.getTime()) {
      row.updated_at = at
      changedClients.add(clientId)
    }
  }

  for (const event of events) {
    const at = occurredAt(event)
    switch (event.type) {
      case 'ClientAdded': {
        const d = event.data
        if (clients.has(d.client_id)) break
        const times = nextStatusTimes({ deactivatedAt: null, deletedAt: null }, null, d.status, at.toISOString())
        clients.set(d.client_id, {
          id: d.client_id,
          org_id: d.org_id,
          name: d.name,
          website_url: d.website_url,
          slug: d.slug,
          status: d.status,
          created_at: at,
          updated_at: at,
          deactivated_at: date(times.deactivatedAt),
          deleted_at: date(times.deletedAt),
        })
        changedClients.add(d.client_id)
        break
      }
      case 'ClientUpdated': {
        const d = event.data
        const row = clients.get(d.client_id)
        if (row) {
          if (d.name !== undefined) row.name = d.name
          if (d.website_url !== undefined) row.website_url = d.website_url
          if (d.slug !== undefined) row.slug = d.slug
          changedClients.add(d.client_id)
        }
        touch(d.client_id, at)
        break
      }
      case 'ClientStatusChanged': {
        const d = event.data
        const row = clients.get(d.client_id)
        if (!row) break
        const current = { deactivatedAt: row.deactivated_at?.toISOString() ?? null, deletedAt: row.deleted_at?.toISOString() ?? null }
        const times = nextStatusTimes(current, d.from, d.to, at.toISOString())
        row.status = d.to
        row.deactivated_at = date(times.deactivatedAt)
        row.deleted_at = date(times.deletedAt)
        changedClients.add(d.client_id)
        touch(d.client_id, at)
        break
      }
      case 'ClientServiceAdded': {
        const d = event.data
        if (!newServices.has(d.service_id)) {
          newServices.set(d.service_id, {
            id: d.service_id,
            client_id: d.client_id,
            org_id: orgIdOf(event),
            name: d.name,
            description: d.description,
            created_at: at,
          })
        }
        touch(d.client_id, at)
        break
      }
      case 'ClientLocationAdded': {
        const d = event.data
        // Insert-if-absent: known (stored, or inserted earlier in this batch) means no change. A stored location
        // not among `locations` is not removed in this batch, so its insert is left to ON CONFLICT DO NOTHING.
        if (!locations.has(d.location_id) && !newLocations.has(d.location_id)) {
          const row: NewLocation = {
            id: d.location_id,
            client_id: d.client_id,
            org_id: orgIdOf(event),
            name: d.name,
            city: d.city,
            state: d.state,
            country: d.country,
            created_at: at,
            removed_at: null,
          }
          newLocations.set(d.location_id, row)
          if (removedIds.length > 0) locations.set(d.location_id, { removed_at: null, row })
        }
        touch(d.client_id, at)
        break
      }
      case 'ClientLocationsRemoved': {
        const d = event.data
        for (const id of d.location_ids) {
          const location = locations.get(id)
          if (!location || location.removed_at !== null) continue
          location.removed_at = at
          if (location.row) location.row.removed_at = at
          else removedLocations.set(id, at)
        }
        touch(d.client_id, at)
        break
      }
      case 'ClientSettingSet': {
        const d = event.data
        const key = `${d.client_id}\u0000${d.key}`
        const earlier = settings.get(key)
        // The row keeps the org_id it was inserted with; value and time are the last event's.
        settings.set(key, { client_id: d.client_id, key: d.key, org_id: earlier?.org_id ?? orgIdOf(event), value: d.value, updated_at: at })
        touch(d.client_id, at)
        break
      }
    }
  }

  const changed = [...changedClients].map((id) => clients.get(id)!)
  if (changed.length > 0) {
    await executeWrite(
      db,
      db
        .insertInto('clients')
        .columns(['id', 'org_id', 'name', 'website_url', 'slug', 'status', 'created_at', 'updated_at', 'deactivated_at', 'deleted_at'])
        .expression(
          unnestRows([
            [changed.map((r) => r.id), 'bigint'],
            [changed.map((r) => r.org_id), 'bigint'],
            [changed.map((r) => r.name), 'text'],
            [changed.map((r) => r.website_url), 'text'],
            [changed.map((r) => r.slug), 'text'],
            [changed.map((r) => r.status), 'text'],
            [changed.map((r) => r.created_at), 'timestamptz'],
            [changed.map((r) => r.updated_at), 'timestamptz'],
            [changed.map((r) => r.deactivated_at), 'timestamptz'],
            [changed.map((r) => r.deleted_at), 'timestamptz'],
          ]),
        )
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            website_url: eb.ref('excluded.website_url'),
            slug: eb.ref('excluded.slug'),
            status: eb.ref('excluded.status'),
            updated_at: eb.ref('excluded.updated_at'),
            deactivated_at: eb.ref('excluded.deactivated_at'),
            deleted_at: eb.ref('excluded.deleted_at'),
          })),
        ),
    )
  }
  if (touches.size > 0) {
    const latest = unnestRelation<{ id: number; at: Date }, 't'>('t', [
      ['id', [...touches.keys()], 'bigint'],
      ['at', [...touches.values()], 'timestamptz'],
    ])
    await executeWrite(
      db,
      db
        .updateTable('clients')
        .from(latest)
        .set({ updated_at: sql`greatest(clients.updated_at, t.at)` })
        .whereRef('clients.id', '=', 't.id'),
    )
  }
  const services = [...newServices.values()]
  if (services.length > 0) {
    await executeWrite(
      db,
      db
        .insertInto('client_services')
        .columns(['id', 'client_id', 'org_id', 'name', 'description', 'created_at'])
        .expression(
          unnestRows([
            [services.map((r) => r.id), 'bigint'],
            [services.map((r) => r.client_id), 'bigint'],
            [services.map((r) => r.org_id), 'bigint'],
            [services.map((r) => r.name), 'text'],
            [services.map((r) => r.description), 'text'],
            [services.map((r) => r.created_at), 'timestamptz'],
          ]),
        )
        .onConflict((oc) => oc.column('id').doNothing()),
    )
  }
  const added = [...newLocations.values()]
  if (added.length > 0) {
    await executeWrite(
      db,
      db
        .insertInto('client_locations')
        .columns(['id', 'client_id', 'org_id', 'name', 'city', 'state', 'country', 'created_at', 'removed_at'])
        .expression(
          unnestRows([
            [added.map((r) => r.id), 'bigint'],
            [added.map((r) => r.client_id), 'bigint'],
            [added.map((r) => r.org_id), 'bigint'],
            [added.map((r) => r.name), 'text'],
            [added.map((r) => r.city), 'text'],
            [added.map((r) => r.state), 'text'],
            [added.map((r) => r.country), 'text'],
            [added.map((r) => r.created_at), 'timestamptz'],
            [added.map((r) => r.removed_at), 'timestamptz'],
          ]),
        )
        .onConflict((oc) => oc.column('id').doNothing()),
    )
  }
  if (removedLocations.size > 0) {
    const removals = unnestRelation<{ id: number; removed_at: Date }, 'r'>('r', [
      ['id', [...removedLocations.keys()], 'bigint'],
      ['removed_at', [...removedLocations.values()], 'timestamptz'],
    ])
    await executeWrite(
      db,
      db
        .updateTable('client_locations')
        .from(removals)
        .set((eb) => ({ removed_at: eb.ref('r.removed_at') }))
        .whereRef('client_locations.id', '=', 'r.id')
        .where('client_locations.removed_at', 'is', null),
    )
  }
  const settingRows = [...settings.values()]
  if (settingRows.length > 0) {
    await executeWrite(
      db,
      db
        .insertInto('client_settings')
        .columns(['client_id', 'key', 'org_id', 'value', 'updated_at'])
        .expression(
          unnestRows([
            [settingRows.map((r) => r.client_id), 'bigint'],
            [settingRows.map((r) => r.key), 'text'],
            [settingRows.map((r) => r.org_id), 'bigint'],
            [settingRows.map((r) => r.value), 'text'],
            [settingRows.map((r) => r.updated_at), 'timestamptz'],
          ]),
        )
        .onConflict((oc) =>
          oc
            .columns(['client_id', 'key'])
            .doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') })),
        ),
    )
  }
}
