import { sql } from 'kysely'
import { occurredAt, ofType, ofTypes, type EventOf, type ProjectedEvent, type Projector } from '../projector.js'
import type { ReadDb } from '../tables.js'
import { unnestRows } from '../unnest.js'

interface NewKey {
  id: number
  org_id: number | null
  name: string
  notes: string
  scopes: string
  key_hash: string
  key_hint: string
  created_by_user_id: number | null
  created_at: Date
  revoked_at: Date | null
}

/** The api_keys row an ApiKeyCreated event makes. */
function keyRow(event: EventOf<'ApiKeyCreated'>): NewKey {
  const d = event.data
  return {
    id: d.key_id,
    org_id: d.org_id,
    name: d.name,
    notes: d.notes,
    scopes: d.scopes.join(','),
    key_hash: d.key_hash,
    key_hint: d.key_hint,
    created_by_user_id: d.created_by_user_id,
    created_at: occurredAt(event),
    revoked_at: null,
  }
}

/** The keys a batch revokes are read first, so that the fold over the batch knows which exist. */
async function applyApiKeyEvents(db: ReadDb, batch: readonly ProjectedEvent[]): Promise<void> {
  await applyCreatedAndRevoked(db, batch)
  // After the inserts: a key created in this batch gets the limit set later in the same batch.
  await applyRateLimits(db, batch)
}

/** ApiKeyRateLimitSet: the last limit set for each key in the batch wins, as applying the events one by one would. */
async function applyRateLimits(db: ReadDb, batch: readonly ProjectedEvent[]): Promise<void> {
  const last = new Map<number, number | null>()
  for (const event of ofType(batch, 'ApiKeyRateLimitSet')) last.set(event.data.key_id, event.data.per_minute)
  if (last.size === 0) return
  const limits = sql<{
    id: number
    per_minute: number | null
  }>`(select * from unnest(${[...last.keys()]}::bigint[], ${[...last.values()]}::integer[]) as u(id, per_minute))`
  await db
    .updateTable('api_keys')
    .from(limits.as('l'))
    .set((eb) => ({ rate_limit_per_minute: eb.ref('l.per_minute') }))
    .whereRef('api_keys.id', '=', 'l.id')
    .execute()
}

async function applyCreatedAndRevoked(db: ReadDb, batch: readonly ProjectedEvent[]): Promise<void> {
  const events = ofTypes(batch, ['ApiKeyCreated', 'ApiKeyRevoked'])
  if (events.length === 0) return
  const revokedIds = [...new Set(ofType(events, 'ApiKeyRevoked').map((e) => e.data.key_id))]
  const stored =
    revokedIds.length === 0
      ? []
      : await db.selectFrom('api_keys').select(['id', 'revoked_at']).where(sql<boolean>`id = any(${revokedIds}::bigint[])`).execute()
  const revocable = new Map<number, { revoked_at: Date | null; row?: NewKey }>(stored.map((r) => [r.id, { revoked_at: r.revoked_at }]))
  const created = new Map<number, NewKey>()
  const revokedStored = new Map<number, Date>()
  for (const event of events) {
    const d = event.data
    if (event.type === 'ApiKeyCreated') {
      if (revocable.has(d.key_id) || created.has(d.key_id)) continue
      const row = keyRow(event)
      created.set(d.key_id, row)
      if (revokedIds.length > 0) revocable.set(d.key_id, { revoked_at: null, row })
      continue
    }
    const key = revocable.get(d.key_id)
    if (!key || key.revoked_at !== null) continue
    key.revoked_at = occurredAt(event)
    if (key.row) key.row.revoked_at = key.revoked_at
    else revokedStored.set(d.key_id, key.revoked_at)
  }
  const rows = [...created.values()]
  if (rows.length > 0) {
    await db
      .insertInto('api_keys')
      .columns(['id', 'org_id', 'name', 'notes', 'scopes', 'key_hash', 'key_hint', 'created_by_user_id', 'created_at', 'revoked_at'])
      .expression(
        unnestRows([
          [rows.map((r) => r.id), 'bigint'],
          [rows.map((r) => r.org_id), 'bigint'],
          [rows.map((r) => r.name), 'text'],
          [rows.map((r) => r.notes), 'text'],
          [rows.map((r) => r.scopes), 'text'],
          [rows.map((r) => r.key_hash), 'text'],
          [rows.map((r) => r.key_hint), 'text'],
          [rows.map((r) => r.created_by_user_id), 'bigint'],
          [rows.map((r) => r.created_at), 'timestamptz'],
          [rows.map((r) => r.revoked_at), 'timestamptz'],
        ]),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
  }
  if (revokedStored.size > 0) {
    const ids = [...revokedStored.keys()]
    const times = [...revokedStored.values()].map((at) => at.toISOString())
    const revocations = sql<{
      id: number
      revoked_at: Date
    }>`(select * from unnest(${ids}::bigint[], ${times}::timestamptz[]) as u(id, revoked_at))`
    await db
      .updateTable('api_keys')
      .from(revocations.as('r'))
      .set((eb) => ({ revoked_at: eb.ref('r.revoked_at') }))
      .whereRef('api_keys.id', '=', 'r.id')
      .where('api_keys.revoked_at', 'is', null)
      .execute()
  }
}

/**
 * api_keys: one row per key. A key is inserted if absent (the first event wins), a revocation stamps only a
 * key that exists by then and is not revoked yet, and the last rate limit set wins.
 */
export const apiKeysProjector: Projector = {
  name: 'api_keys',
  handles: ['ApiKeyCreated', 'ApiKeyRevoked', 'ApiKeyRateLimitSet'],
  apply: applyApiKeyEvents,
}
