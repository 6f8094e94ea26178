import { sql, type Kysely } from 'kysely'

/**
 * The id sequence of site scans (domain/monitoring/scans): ids the API shows as session_id, never reused, even
 * across a rebuild. Everything else of a scan lives in the log (its take is a lease in its stream) and in read
 * models rebuilt from it.
 */
export const SITE_SCAN_ID_KINDS = ['site_scan'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of SITE_SCAN_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of SITE_SCAN_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
