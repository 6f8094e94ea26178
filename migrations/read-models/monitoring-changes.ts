import { sql, type Kysely } from 'kysely'

/** The changes sub-area's read models (projections/monitoring/changes). */
export async function createSiteChangesTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('site_changes')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      page_id bigint not null,
      url text not null,
      kind text not null,
      severity text not null,
      before text,
      after text,
      words_changed integer,
      attribution text not null,
      edit_id bigint,
      snapshot_id bigint not null,
      previous_snapshot_id bigint,
      detected_at timestamptz not null
    )`.execute(db)
  // get_site_changes and count_site_changes_by_month: a client's changes, newest first.
  await sql`create index ${sql.id('site_changes_client')} on ${t('site_changes')} (client_id, detected_at desc, id desc)`.execute(db)
  // get_site_changes_for_page.
  await sql`create index ${sql.id('site_changes_page')} on ${t('site_changes')} (page_id, detected_at desc, id desc)`.execute(db)
}
