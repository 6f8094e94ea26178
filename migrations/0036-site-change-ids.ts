import { sql, type Kysely } from 'kysely'

/**
 * The id sequence of site changes (domain/monitoring/changes): ids the API shows as change_id and webhooks
 * carry, allocated by recordCrawledPages (commands/monitoring/snapshots.ts), never reused, even across a rebuild.
 */
export const SITE_CHANGE_ID_KINDS = ['site_change'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of SITE_CHANGE_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of SITE_CHANGE_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
