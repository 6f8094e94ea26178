import { sql, type Kysely } from 'kysely'

/**
 * The intent read models (projections/search/intent): page_intents, one row per page (its current content's
 * hash, the intent to use and where it comes from: a person's override or a classification), and
 * page_intent_cache, one row per page × content hash (what the classifier said about that content).
 */
export async function createIntentTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('page_intents')} (
      page_id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      content_sha256 text not null,
      snapshot_id bigint,
      intent text,
      source text,
      classified_intent text,
      classifier text,
      confidence double precision,
      classified_sha256 text,
      up_to_date boolean not null,
      override_intent text,
      override_note text,
      override_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('page_intents_client')} on ${t('page_intents')} (client_id, page_id)`.execute(db)
  await sql`
    create table ${t('page_intent_cache')} (
      page_id bigint not null,
      content_sha256 text not null,
      client_id bigint not null,
      org_id bigint not null,
      snapshot_id bigint,
      intent text not null,
      confidence double precision not null,
      signals jsonb not null,
      classifier text not null,
      model text,
      fallback_reason text,
      request_id text,
      revision bigint not null,
      classified_at timestamptz not null,
      primary key (page_id, content_sha256)
    )`.execute(db)
  await sql`create index ${sql.id('page_intent_cache_newest')} on ${t('page_intent_cache')} (page_id, revision desc)`.execute(db)
}
