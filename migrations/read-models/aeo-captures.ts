import { sql, type Kysely } from 'kysely'

/** Captures with their analysis, and the tracker items (projections/aeo/captures, projections/aeo/tracker). */
export async function createAeoCaptureTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('aeo_captures')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      query_id bigint not null,
      engine text not null,
      month text not null,
      run_id bigint,
      answer_text text not null,
      citations jsonb not null,
      retrieved jsonb not null,
      model text not null,
      surface text not null,
      searched boolean,
      analysis_version integer not null,
      report_json jsonb not null,
      record_bytes integer not null,
      record_pruned_at timestamptz,
      captured_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('aeo_captures_client_month')} on ${t('aeo_captures')} (client_id, month, id)`.execute(db)
  await sql`create index ${sql.id('aeo_captures_query')} on ${t('aeo_captures')} (query_id)`.execute(db)
  await sql`
    create table ${t('aeo_items')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      item_key text not null,
      tier text not null,
      title text not null,
      status text not null,
      evidence text not null,
      note text,
      first_month text not null,
      last_month text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (client_id, item_key)
    )`.execute(db)
  await sql`
    create table ${t('aeo_item_hits')} (
      item_id bigint not null,
      capture_id bigint not null,
      client_id bigint not null,
      query_id bigint not null,
      engine text not null,
      month text not null,
      primary key (item_id, capture_id)
    )`.execute(db)
  await sql`create index ${sql.id('aeo_item_hits_client')} on ${t('aeo_item_hits')} (client_id, month)`.execute(db)
}
