import { sql, type Kysely } from 'kysely'

/**
 * The client groups sub-area's read models (projections/planning/groups): one row per group (deleted ones
 * kept, marked) and one per current member. A group row has no client_id: it is the organization's, and a
 * sandbox reset keeps it (the seed finds it again by name); its member rows go with the retired clients.
 */
export async function createClientGroupsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('client_groups')} (
      id bigint primary key,
      org_id bigint not null,
      name text not null,
      description text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('client_groups_org')} on ${t('client_groups')} (org_id, name)`.execute(db)
  await sql`
    create table ${t('client_group_members')} (
      group_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      added_at timestamptz not null,
      primary key (group_id, client_id)
    )`.execute(db)
  await sql`create index ${sql.id('client_group_members_client')} on ${t('client_group_members')} (client_id)`.execute(db)
}
