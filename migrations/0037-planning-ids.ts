import { sql, type Kysely } from 'kysely'

/**
 * The id sequences of the planning area (domain/planning): action items, client groups and compare reports,
 * ids the API shows, never reused, even across a rebuild.
 */
export const PLANNING_ID_KINDS = ['action_item', 'client_group', 'compare_report'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of PLANNING_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of PLANNING_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
