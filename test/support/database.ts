import { randomBytes } from 'node:crypto'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { WorkTables } from '../../migrations/work-tables.js'

export interface TestDatabase {
  readonly url: string
  readonly pool: pg.Pool
  readonly db: Kysely<WorkTables>
}

interface Teardown {
  teardown(fn: () => unknown): void
}

/**
 * A fresh, migrated database for one test (cloned from the template `npm test` prepared), dropped
 * when the test ends.
 */
export async function createTestDatabase(t: Teardown): Promise<TestDatabase> {
  const serverUrl = process.env.RR_TEST_SERVER_URL
  const template = process.env.RR_TEST_TEMPLATE
  if (!serverUrl || !template) throw new Error('Run tests with `npm test` (it starts the embedded PostgreSQL)')
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(serverUrl, `create database ${name} template ${template}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 })
  // Dropping the database ends its connections; an idle client reporting that must not crash the test.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = new Kysely<WorkTables>({ dialect: new PostgresDialect({ pool }) })
  t.teardown(async () => {
    await db.destroy().catch(() => {})
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`).catch(() => {})
  })
  return { url: url.toString(), pool, db }
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}
