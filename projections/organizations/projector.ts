import { occurredAt, type ProjectedEvent, type Projector } from '../projector.js'
import type { ReadDb } from '../tables.js'
import { unnestRows } from '../unnest.js'

/** Every new organization of the batch in one insert (the first event for an id wins, as a conflict would). */
async function insertOrganizations(db: ReadDb, events: readonly ProjectedEvent[]): Promise<void> {
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

/**
 * A branding change sets only the fields the event carries (null clears one): applying it again writes
 * the same values, so it is idempotent, and in log order the latest change wins.
 */
async function applyBranding(db: ReadDb, event: ProjectedEvent): Promise<void> {
  const data = event.data as { org_id: number; name?: string | null; logo_url?: string | null; accent_color?: string | null }
  const set: { brand_name?: string | null; logo_url?: string | null; accent_color?: string | null; updated_at: Date } = {
    updated_at: occurredAt(event),
  }
  if (data.name !== undefined) set.brand_name = data.name
  if (data.logo_url !== undefined) set.logo_url = data.logo_url
  if (data.accent_color !== undefined) set.accent_color = data.accent_color
  await db.updateTable('organizations').set(set).where('id', '=', data.org_id).execute()
}

async function applyOrganizationEvents(db: ReadDb, events: readonly ProjectedEvent[]): Promise<void> {
  await insertOrganizations(db, events)
  // Branding changes are rare: one update each, in log order, after the inserts (an organization is
  // always created before its branding changes, so the row exists).
  for (const event of events) if (event.type === 'OrganizationBrandingUpdated') await applyBranding(db, event)
}

/** organizations: one row per organization (the first creation wins) with its branding. */
export const organizationsProjector: Projector = {
  name: 'organizations',
  handles: ['OrganizationCreated', 'OrganizationBrandingUpdated'],
  apply: applyOrganizationEvents,
}
