import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { NamedStatementClient } from '../commands/named-statements.js'
import { PG_CONNECT_TIMEOUT_MS } from '../commands/postgres-connect-timeout.js'
import type { WorkTables } from '../migrations/work-tables.js'

// int8 columns (the ids the API shows, counts) as numbers: every id is a safe integer. Log positions are
// selected as text, so they never pass through this parser.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value))

export interface Database {
  readonly url: string
  readonly pool: pg.Pool
  readonly db: Kysely<WorkTables>
  close(): Promise<void>
}

/** A pool and a kysely instance over it. Idle-client errors (a restarted server) are logged, not fatal. */
export function openPool(url: string, options: { max?: number; onError?: (error: Error) => void } = {}): Database {
  // Hot statement texts registered in commands/named-statements.ts run as named (prepared) statements. A
  // connect that hangs (packets dropped) fails after PG_CONNECT_TIMEOUT_MS, as the store being unavailable.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    Client: NamedStatementClient,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
  })
  let closing = false
  // Sessions ended while the pool shuts down (the embedded server stopping right after) are expected.
  const onError = (error: Error) => {
    if (!closing) options.onError?.(error)
  }
  pool.on('error', onError)
  // pg-pool listens for errors only on idle clients: a checked-out client whose session ends (a terminated
  // backend, a restarting server) would otherwise crash the process. Its query fails; callers retry.
  pool.on('connect', (client) => client.on('error', onError))
  const db = new Kysely<WorkTables>({ dialect: new PostgresDialect({ pool }) })
  return {
    url,
    pool,
    db,
    close: () => {
      closing = true
      return db.destroy()
    },
  }
}

/** Creates the database on its server when missing (the embedded cluster starts with only `postgres`). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS })
  await client.connect()
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name])
    if (!rowCount) {
      await client.query(`create database ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error // created concurrently: fine
      })
    }
  } finally {
    await client.end()
  }
}
