import { sql, type Kysely } from 'kysely'

/**
 * keyword_ranks (projections/search/ranks): one row per keyword × location × device × date, the latest
 * recorded for that key. A primary key cannot hold a null, so `location_key` is the location id, 0 for a
 * national rank (location_id null). `rank_date` is YYYY-MM-DD text: it sorts as dates do and reads back as
 * the API writes it (pg would turn a date column into a local-midnight Date).
 */
export async function createRanksTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('keyword_ranks')} (
      keyword_id bigint not null,
      location_key bigint not null,
      device text not null,
      rank_date text not null,
      location_id bigint,
      client_id bigint not null,
      org_id bigint not null,
      position smallint,
      url text,
      page_id bigint,
      competitors jsonb not null,
      local_pack boolean not null,
      local_pack_includes_client boolean not null,
      featured_snippet boolean not null,
      featured_snippet_is_client boolean not null,
      people_also_ask boolean not null,
      ai_overview boolean not null,
      ai_overview_cites_client boolean not null,
      source text not null,
      check_id bigint,
      revision bigint not null,
      recorded_at timestamptz not null,
      -- A chart's columns ride in the key's index: get_rank_history reads a series' points from its leaf
      -- pages alone (an index-only scan) instead of one heap page per day, rows being written day by day.
      primary key (keyword_id, location_key, device, rank_date) include (position, page_id, ai_overview, ai_overview_cites_client)
    )`.execute(db)
  // get_available_rank_dates (a loose index scan over a client's dates) and reads of a client's day.
  await sql`create index ${sql.id('keyword_ranks_client_date')} on ${t('keyword_ranks')} (client_id, rank_date)`.execute(db)
}
