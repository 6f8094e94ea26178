import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { migrateToLatest } from '../../migrations/index.js'

export const TEMPLATE_DATABASE = 'rankrelay_template'

/** (Re)creates the migrated template database every test database is cloned from. */
export async function prepareTemplate(serverUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE}`)
    await admin.query(`create database ${TEMPLATE_DATABASE}`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${TEMPLATE_DATABASE}`
  // Typed as the migrations take it: before they run, the database has no tables to name.
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) })
  try {
    await migrateToLatest(db)
  } finally {
    await db.destroy()
  }
}
