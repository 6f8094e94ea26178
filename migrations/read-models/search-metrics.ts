import { sql, type Kysely } from 'kysely'

/**
 * The metrics read models (projections/search/metrics): an organization's keyword metrics (one row per
 * normalized keyword × Google Ads location, shared by its clients) and the log of fetches that wrote them.
 */
export async function createKeywordMetricsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('keyword_metrics')} (
      org_id bigint not null,
      keyword_key text not null,
      location_code integer not null,
      keyword text not null,
      location_name text not null,
      language_code text not null,
      search_volume bigint,
      cpc double precision,
      competition text,
      competition_index integer,
      low_top_of_page_bid double precision,
      high_top_of_page_bid double precision,
      difficulty integer,
      monthly_searches jsonb not null default '[]',
      spell text,
      source text,
      fetch_id uuid,
      fetched_at timestamptz,
      refresh_requested_at timestamptz,
      last_error_code text,
      last_error_message text,
      last_error_at timestamptz,
      updated_at timestamptz not null,
      primary key (org_id, keyword_key, location_code)
    )`.execute(db)
  await sql`
    create table ${t('keyword_metrics_fetches')} (
      id uuid primary key,
      org_id bigint not null,
      source text not null,
      status text not null,
      location_code integer not null,
      location_name text not null,
      language_code text not null,
      keywords integer not null,
      with_data integer not null,
      difficulty text,
      difficulty_error_code text,
      difficulty_error_message text,
      attempts integer not null,
      provider_calls integer not null,
      cost_usd double precision,
      error_code text,
      error_message text,
      error_http_status integer,
      error_provider_status integer,
      recorded_at timestamptz not null
    )`.execute(db)
  // The fetch log newest first per organization, and its last account failure (the processor's cooldown).
  await sql`create index ${sql.id('keyword_metrics_fetches_org')} on ${t('keyword_metrics_fetches')} (org_id, recorded_at desc)`.execute(db)
}
