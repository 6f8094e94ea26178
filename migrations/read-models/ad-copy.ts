import { sql, type Kysely } from 'kysely'

/** Ad copy sets and their ad groups (projections/ad-copy). */
export async function createAdCopyTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('ad_copy_sets')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      job_id bigint,
      status text not null,
      ad_group_count integer not null,
      approved_by text,
      approved_at timestamptz,
      rejected_by text,
      rejected_at timestamptz,
      rejection_reason text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('ad_copy_sets_client')} on ${t('ad_copy_sets')} (client_id, id desc)`.execute(db)
  await sql`create index ${sql.id('ad_copy_sets_job')} on ${t('ad_copy_sets')} (job_id) where job_id is not null`.execute(db)
  await sql`
    create table ${t('ad_copy_ad_groups')} (
      id bigint primary key,
      set_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      position integer not null,
      name text not null,
      service text not null,
      area text not null,
      headlines jsonb not null,
      descriptions jsonb not null,
      keywords jsonb not null,
      final_url text not null,
      writer text not null
    )`.execute(db)
  await sql`create index ${sql.id('ad_copy_ad_groups_set')} on ${t('ad_copy_ad_groups')} (set_id, position)`.execute(db)
}
