import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import { createReadModelSchema, LIVE_SCHEMA, READ_MODEL_VERSION } from '../migrations/read-models/index.js'
import { insertCheckpoint } from './checkpoint.js'

export async function schemaExists(db: Kysely<WorkTables>, schema: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${schema}`.execute(db)
  return (rows[0]?.n ?? 0) > 0
}

/**
 * Makes sure the live read-model schema exists (empty, checkpoint at the start of the log, so the runner
 * builds it). Returns the version found, so the caller can rebuild when the code expects a newer one.
 */
export async function ensureLiveReadModels(
  db: Kysely<WorkTables>,
  groups: readonly string[],
): Promise<{ created: boolean; version: number }> {
  return db.transaction().execute(async (trx) => {
    // Two processes starting together must not both create the schema.
    await sql`select pg_advisory_xact_lock(hashtext('read-models:setup'))`.execute(trx)
    if (await schemaExists(trx, LIVE_SCHEMA)) {
      const { rows } = await sql<{ v: number | null }>`
        select min(read_model_version) as v from ${sql.id(LIVE_SCHEMA, 'projection_checkpoint')}`.execute(trx)
      for (const group of groups) await insertCheckpoint(trx, LIVE_SCHEMA, group)
      return { created: false, version: rows[0]?.v ?? READ_MODEL_VERSION }
    }
    await createReadModelSchema(trx, LIVE_SCHEMA)
    for (const group of groups) await insertCheckpoint(trx, LIVE_SCHEMA, group)
    return { created: true, version: READ_MODEL_VERSION }
  })
}
