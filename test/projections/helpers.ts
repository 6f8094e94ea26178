/**
 * Shared by the projection tests: a generic dump of every read-model table (so a new read model is covered
 * without touching the tests), projecting a log into a scratch schema, waiting for a runner to catch up,
 * and a realistic log produced through the write RPCs.
 */
import { sql, type Kysely } from 'kysely'
import type { EventStore, RecordedEvent } from '../../commands/event-store/port.js'
import { createReadModelSchema, LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { applyEvents } from '../../projections/apply-events.js'
import { insertCheckpoint } from '../../projections/checkpoint.js'
import { MAIN_GROUP, projectors as mainProjectors } from '../../projections/index.js'
import type { Projector } from '../../projections/projector.js'
import type { ReadDb } from '../../projections/tables.js'
import type { TestSystem } from '../support/system.js'
import { writeAeoCapturesLog } from './realistic/aeo-captures.js'
import { writeAeoQuestionsLog } from './realistic/aeo-questions.js'
import { writeJobsLog } from './realistic/jobs.js'
import { writeAeoReportsLog } from './realistic/aeo-reports.js'
import { writeSiteEditsLog } from './realistic/site-edits.js'
import { writeAeoRunsLog } from './realistic/aeo-runs.js'
import { writeAdCopyLog } from './realistic/ad-copy.js'
import { writeKeywordsLog } from './realistic/keywords.js'
import { writeSandboxLog } from './realistic/sandbox.js'
import { writeWebhooksLog } from './realistic/webhooks.js'
import { writeExportsLog } from './realistic/exports.js'
import { writePeopleLog } from './realistic/people.js'
import { writeOAuthLog } from './realistic/oauth.js'
import { writeSsoLog } from './realistic/sso.js'
import { writeSearchLog } from './realistic/search.js'
import { writeMonitoringLog } from './realistic/monitoring.js'
import { writePlanningLog } from './realistic/planning.js'
import { writePublishingLog } from './realistic/publishing.js'
import { writeContentLog } from './realistic/content.js'

/** Every table of a schema: its rows as JSON objects (full timestamp precision), ordered by primary key. */
export type SchemaDump = Record<string, Record<string, unknown>[]>

/** Columns left out of a dump, per table (e.g. `{ projection_checkpoint: ['updated_at'] }`). */
export type OmitColumns = Readonly<Record<string, readonly string[]>>

export async function listTables(db: Kysely<any>, schema: string): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = ${schema} and table_type = 'BASE TABLE'
    order by table_name`.execute(db)
  return rows.map((r) => r.table_name)
}

/** The primary-key columns in key order; every column when a table has no primary key. */
async function orderColumns(db: Kysely<any>, schema: string, table: string): Promise<string[]> {
  const { rows: key } = await sql<{ column_name: string }>`
    select kcu.column_name
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu
      on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name
    where tc.table_schema = ${schema} and tc.table_name = ${table} and tc.constraint_type = 'PRIMARY KEY'
    order by kcu.ordinal_position`.execute(db)
  if (key.length > 0) return key.map((r) => r.column_name)
  const { rows: all } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = ${schema} and table_name = ${table}
    order by ordinal_position`.execute(db)
  return all.map((r) => r.column_name)
}

export async function dumpTable(
  db: Kysely<any>,
  schema: string,
  table: string,
  omit: readonly string[] = [],
): Promise<Record<string, unknown>[]> {
  const order = await orderColumns(db, schema, table)
  const { rows } = await sql<{ row: Record<string, unknown> }>`
    select to_jsonb(t) as row from ${sql.id(schema, table)} as t
    order by ${sql.join(order.map((c) => sql.ref(`t.${c}`)))}`.execute(db)
  return rows.map(({ row }) => {
    const copy = { ...row }
    for (const column of omit) delete copy[column]
    return copy
  })
}

/** Every table of `schema`, found through information_schema. */
export async function dumpSchema(db: Kysely<any>, schema: string, omit: OmitColumns = {}): Promise<SchemaDump> {
  const dump: SchemaDump = {}
  for (const table of await listTables(db, schema)) dump[table] = await dumpTable(db, schema, table, omit[table] ?? [])
  return dump
}

/**
 * The whole log through readAll, once every appended event is visible to it: readAll only shows
 * transactions below the cluster-wide snapshot xmin, so right after an append (while any transaction in
 * any database of the server is open) the newest events may not show yet. Assumes no concurrent writer.
 */
export async function readLog(store: EventStore, db: Kysely<any>, timeoutMs = 15_000): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const events: RecordedEvent[] = []
    for await (const event of store.readAll()) events.push(event)
    const total = await countEvents(db)
    if (events.length === total) return events
    if (Date.now() > deadline) throw new Error(`readAll shows ${events.length} of ${total} events`)
    await sleep(20)
  }
}

export async function dropSchema(db: Kysely<any>, schema: string): Promise<void> {
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db)
}

/**
 * Fresh read-model schemas with the main group's checkpoint, created in one transaction so that their
 * checkpoint rows (updated_at defaults to now(), the transaction's start) are identical.
 */
export async function createScratchSchemas(db: Kysely<any>, schemas: readonly string[]): Promise<void> {
  const create = async (trx: Kysely<any>) => {
    for (const schema of schemas) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx)
      await createReadModelSchema(trx, schema)
      await insertCheckpoint(trx, schema, MAIN_GROUP)
    }
  }
  if (db.isTransaction) await create(db)
  else await db.transaction().execute(create)
}

export function schemaDb(db: Kysely<any>, schema: string): ReadDb {
  return db.withSchema(schema) as ReadDb
}

/** Projects `events` once, in order, into a scratch schema (rolled back afterwards) and returns its dump. */
export async function projectOnce(
  db: Kysely<any>,
  schema: string,
  events: readonly RecordedEvent[],
  omit: OmitColumns = {},
  projectors: readonly Projector[] = mainProjectors,
): Promise<SchemaDump> {
  return inRolledBackTransaction(db, async (trx) => {
    await createScratchSchemas(trx, [schema])
    await applyEvents(schemaDb(trx, schema), projectors, events)
    return dumpSchema(trx, schema, omit)
  })
}

/**
 * Applies `batches` in order to a scratch schema (rolled back afterwards), as the runner would deliver them,
 * and returns the rows of `tables`: for checking a projector's batch form against its handlers.
 */
export async function projectBatches(
  db: Kysely<any>,
  schema: string,
  projectors: readonly Projector[],
  batches: readonly (readonly RecordedEvent[])[],
  tables: readonly string[],
): Promise<Record<string, unknown[]>> {
  return inRolledBackTransaction(db, async (trx) => {
    await createScratchSchemas(trx, [schema])
    for (const batch of batches) await applyEvents(schemaDb(trx, schema), projectors, batch)
    const dump: Record<string, unknown[]> = {}
    for (const table of tables) dump[table] = await dumpTable(trx, schema, table)
    return dump
  })
}

/** `items` cut into consecutive batches whose sizes cycle through `sizes` (each at least 1). */
export function cutIntoBatches<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const batches: T[][] = []
  let at = 0
  for (let k = 0; at < items.length; k++) {
    const size = sizes[k % sizes.length]!
    batches.push(items.slice(at, at + size))
    at += size
  }
  return batches
}

/** Redeliveries: the events at the positions `repeats` names (modulo the length) delivered twice, in place. */
export function withRedeliveries<T>(events: readonly T[], repeats: readonly number[]): T[] {
  const again = new Set(repeats.map((r) => r % events.length))
  return events.flatMap((e, i) => (again.has(i) ? [e, e] : [e]))
}

/** Runs `fn` in a transaction that is always rolled back (scratch work: nothing to clean up, no commits). */
export async function inRolledBackTransaction<T>(db: Kysely<any>, fn: (trx: Kysely<any>) => Promise<T>): Promise<T> {
  const rollback = new Error('roll back')
  let result: T | undefined
  await db
    .transaction()
    .execute(async (trx) => {
      result = await fn(trx)
      throw rollback
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error
    })
  return result as T
}

export interface CheckpointRow {
  position: string | null
  events_applied: number
}

export async function readCheckpointRow(db: Kysely<any>, schema: string = LIVE_SCHEMA): Promise<CheckpointRow> {
  const { rows } = await sql<{ position: string | null; events_applied: string }>`
    select position, events_applied::text as events_applied from ${sql.id(schema, 'projection_checkpoint')}
    where group_name = ${MAIN_GROUP}`.execute(db)
  const row = rows[0]
  if (!row) throw new Error(`no checkpoint in ${schema}`)
  return { position: row.position, events_applied: Number(row.events_applied) }
}

export async function countEvents(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from es_events`.execute(db)
  return Number(rows[0]!.n)
}

/** Events of an organization (metadata.org_id is a number): the ones org_activity records. */
export async function countOrgEvents(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*)::text as n from es_events where jsonb_typeof(metadata->'org_id') = 'number'`.execute(db)
  return Number(rows[0]!.n)
}

/**
 * Waits until the checkpoint of `schema` (built from position zero) has applied every event in es_events
 * and is at the head of the log; throws after `timeoutMs`.
 */
export async function waitForCatchUp(store: EventStore, db: Kysely<any>, schema: string = LIVE_SCHEMA, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const total = await countEvents(db)
    const head = await store.headPosition()
    const checkpoint = await readCheckpointRow(db, schema).catch(() => null)
    if (checkpoint && checkpoint.events_applied >= total && checkpoint.position === head) return
    if (Date.now() > deadline) {
      throw new Error(
        `projections in ${schema} did not catch up: ${checkpoint?.events_applied} of ${total} events, at ${checkpoint?.position}, head ${head}`,
      )
    }
    await sleep(20)
  }
}

export async function schemaExistsNamed(db: Kysely<any>, schema: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${schema}`.execute(db)
  return (rows[0]?.n ?? 0) > 0
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export interface RealisticLog {
  readonly orgIds: number[]
  readonly clientIds: number[]
  readonly revokedKeyIds: number[]
}

/**
 * A log that exercises every read model and every write RPC: several organizations, org and platform
 * keys (some revoked), clients with services, locations and settings, every status transition including
 * delete and restore, location removal and re-adding, get-or-create repeats, and no-op writes.
 */
export async function writeRealisticLog(ts: TestSystem): Promise<RealisticLog> {
  const call = ts.call
  const orgA = await call<number>('create_organization', { name: 'Acme Agency' })
  const orgB = await call<number>('create_organization', { name: 'Bravo Marketing' })
  const orgC = await call<number>('create_organization', { name: 'Charlie & Co' })
  const keyA = (await call<{ id: number; key: string }>('create_api_key', { name: 'acme ops', org_id: orgA, notes: 'main key' })).key
  const keyB = (await call<{ id: number; key: string }>('create_api_key', { name: 'bravo', org_id: orgB, scopes: 'read,write' })).key
  const spareA = await call<{ id: number; key: string }>(
    'create_api_key',
    { name: 'acme spare', org_id: orgA, created_by_user_id: 7 },
    keyA,
  )
  const platformSpare = await call<{ id: number; key: string }>('create_api_key', { name: 'partner key', notes: 'platform' })
  await call('revoke_api_key', { key_id: spareA.id }, keyA)
  await call('revoke_api_key', { key_id: spareA.id }, keyA) // twice: harmless
  await call('revoke_api_key', { key_id: platformSpare.id })
  // Per-key rate limits: set, cleared and set again (in a batch the last value wins).
  const keyBId = (await call<{ id: number }[]>('list_api_keys', { org_id: orgB }))[0]!.id
  await call('set_api_key_rate_limit', { key_id: keyBId, per_minute: 1200 })
  await call('set_api_key_rate_limit', { key_id: keyBId, per_minute: null })
  await call('set_api_key_rate_limit', { key_id: keyBId, per_minute: 900 })

  const plumbers = await call<number>(
    'add_client',
    {
      client: {
        name: 'Plumbers Inc',
        website_url: 'https://plumbers.example.com',
        slug: 'plumbers',
        services: ['Drain cleaning', 'drain  CLEANING'],
        locations: ['Austin, TX', { city: 'Dallas', state: 'TX', country: 'US' }],
        settings: { attention_flag: 'call back' },
      },
    },
    keyA,
  )
  const heaters = await call<number>(
    'add_client',
    {
      client: {
        name: 'Heaters Ltd',
        website_url: 'https://heaters.example.com',
        services: [{ name: 'Water heaters', description: 'install and repair' }],
        settings: { tier: 'gold' },
      },
    },
    keyA,
  )
  const roofers = await call<number>(
    'add_client',
    { client: { name: 'Roofers', website_url: 'https://roofers.example.com', status: 'paused', services: ['Roof repair'] } },
    keyA,
  )
  const staging = await call<number>(
    'add_client',
    { client: { name: 'Staging Site', website_url: 'https://staging.example.com', status: 'staging', slug: 'stage' } },
    keyA,
  )
  const bravo = await call<number>(
    'add_client',
    { client: { name: 'Bravo Dental', website_url: 'https://dental.example.org', locations: ['Miami, FL'] } },
    keyB,
  )
  const charlie = await call<number>('add_client', {
    org_id: orgC,
    client: { name: 'Charlie Cafe', website_url: 'https://cafe.example.net' },
  })
  const gone = await call<number>('add_client', {
    org_id: orgC,
    client: { name: 'Gone Already', website_url: 'https://gone.example.net', status: 'deleted' },
  })

  await call('update_client', { client_id: plumbers, name: 'Plumbers International' }, keyA)
  await call('update_client', { client_id: plumbers, website_url: 'https://plumbers.example.com/home', slug: 'plumbers-intl' }, keyA)
  await call('update_client', { client_id: plumbers, name: 'Plumbers International' }, keyA) // no change
  await call('add_service', { service: { client_id: plumbers, name: 'DRAIN CLEANING' } }, keyA) // existing
  await call('add_location', { location: { client_id: plumbers, name: 'Houston, TX' } }, keyA)
  await call('add_location', { location: { client_id: plumbers, city: 'Austin', state: 'TX' } }, keyA) // existing
  await call('delete_locations_for_client', { client_id: plumbers }, keyA)
  await call('delete_locations_for_client', { client_id: plumbers }, keyA) // nothing left
  await call('add_location', { location: { client_id: plumbers, name: 'Austin, TX' } }, keyA) // again: a new location

  await call('add_service', { service: { client_id: heaters, name: 'Leak detection', description: 'acoustic' } }, keyA)
  await call('set_client_setting', { client_id: heaters, key: 'tier', value: 'platinum' }, keyA)
  await call('set_client_setting', { client_id: heaters, key: 'tier', value: 'platinum' }, keyA) // no change
  await call('set_client_setting', { client_id: heaters, key: 'attention_flag', value: 'overdue' }, keyA)
  await call('set_client_setting', { client_id: heaters, key: 'attention_flag', value: '' }, keyA)
  // Every status transition: active → paused → deleted → active (restored), and the others.
  await call('set_client_status', { client_id: heaters, status: 'paused' }, keyA)
  await call('set_client_status', { client_id: heaters, status: 'deleted' }, keyA)
  await call('set_client_status', { client_id: heaters, status: 'active' }, keyA)
  await call('set_client_status', { client_id: roofers, status: 'staging' }, keyA)
  await call('set_client_status', { client_id: roofers, status: 'deleted' }, keyA)
  await call('set_client_status', { client_id: staging, status: 'active' }, keyA)
  await call('set_client_status', { client_id: staging, status: 'paused' }, keyA)
  await call('set_client_status', { client_id: gone, status: 'staging' })
  await call('set_client_status', { client_id: bravo, status: 'deleted' }, keyB)
  await call('set_client_status', { client_id: bravo, status: 'active' }, keyB)
  await call('add_service', { service: { client_id: bravo, name: 'Implants' } }, keyB)
  await call('set_client_setting', { client_id: bravo, key: 'attention_flag', value: 'renewal due' }, keyB)
  await call('set_client_setting', { client_id: charlie, key: 'notes.internal', value: 'vip' })
  await call('add_location', { location: { client_id: charlie, city: 'Portland', state: 'OR', country: 'US' } })
  await call('update_client', { client_id: charlie, slug: 'charlie' })
  const log = {
    orgIds: [orgA, orgB, orgC],
    clientIds: [plumbers, heaters, roofers, staging, bravo, charlie, gone],
    revokedKeyIds: [spareA.id, platformSpare.id],
  }
  // AI Visibility, part by part, in workflow order (each part's file in realistic/).
  const keys = { orgA: keyA, orgB: keyB }
  await writeAeoQuestionsLog(ts, log, keys)
  await writeAeoRunsLog(ts, log, keys)
  await writeAeoCapturesLog(ts, log, keys)
  await writeAeoReportsLog(ts, log, keys)
  await writeJobsLog(ts, log)
  await writeKeywordsLog(ts, log, keys)
  await writeAdCopyLog(ts, log, keys)
  await writeSiteEditsLog(ts, log, keys)
  await writeWebhooksLog(ts, log, keys)
  await writeExportsLog(ts, log)
  await writePeopleLog(ts, log, keys)
  await writeOAuthLog(ts, log)
  await writeSsoLog(ts, log)
  await writeSearchLog(ts, log, keys)
  await writeMonitoringLog(ts, log, keys)
  await writePlanningLog(ts, log, keys)
  await writePublishingLog(ts, log, keys)
  await writeContentLog(ts, log, keys)
  await writeSandboxLog(ts)
  return log
}
