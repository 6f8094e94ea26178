import { sql, type Kysely } from 'kysely'

/** SEO insights and meta optimizations (projections/search/insights). */
export async function createInsightsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  // `revision`: the stream revision of the last event applied to the row, so a redelivered older event changes nothing.
  // Resolved insights keep their row (status resolved, resolved_at set): the history of what held and when.
  await sql`
    create table ${t('seo_insights')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      insight_type text not null,
      source text not null,
      natural_key text not null,
      severity text not null,
      summary text not null,
      keyword_id bigint,
      page_id bigint,
      evidence jsonb not null,
      status text not null,
      note text not null default '',
      revision bigint not null,
      raised_at timestamptz not null,
      status_changed_at timestamptz,
      resolved_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('seo_insights_client')} on ${t('seo_insights')} (client_id, status, id)`.execute(db)
  await sql`create index ${sql.id('seo_insights_client_type')} on ${t('seo_insights')} (client_id, insight_type, id)`.execute(db)
  await sql`
    create table ${t('meta_optimizations')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      page_id bigint not null,
      page_url text not null,
      insight_id bigint,
      query text not null,
      location text not null,
      current_title text not null,
      current_description text not null,
      proposed_title text not null,
      proposed_description text not null,
      writer text not null,
      status text not null,
      edit_id bigint,
      proposed_by text not null,
      rejected_by text,
      reject_reason text,
      revision bigint not null,
      created_at timestamptz not null,
      staged_at timestamptz,
      applied_at timestamptz,
      rejected_at timestamptz,
      rolled_back_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('meta_optimizations_client')} on ${t('meta_optimizations')} (client_id, status, id)`.execute(db)
  await sql`create index ${sql.id('meta_optimizations_page')} on ${t('meta_optimizations')} (client_id, page_id, created_at)`.execute(db)
}
