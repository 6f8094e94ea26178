import { sql, type Kysely } from 'kysely'

/**
 * The totals behind get_aeo_summary, kept by the captures projector as captures are projected
 * (projections/aeo/captures/summary-totals.ts), so that the read adds up a few small rows instead of every
 * capture's TOASTed report_json:
 * - aeo_summary_counts: captures and scorecard counts per (client, month, question, engine). Keyed by the
 *   question, not its service, because update_aeo_query can move a question to another service later and the
 *   summary shows the current one (the read joins aeo_queries).
 * - aeo_summary_competitors: per (client, month, lower(name)), the answers naming that business.
 * - aeo_summary_spellings: per spelling of that name, how many entity rows use it, so the read can pick the
 *   spelling exactly as mode() over the rows would (the commonest, then the first in sort order).
 * - aeo_summary_months: the three above as get_aeo_summary reads them, one row per (client, month with
 *   captures), rebuilt from them after every change of that month: the month's counts per (question,
 *   engine) as a JSON array, the questions they name, and the month's top 50 competitors in their shown
 *   spelling, ordered. The read then fetches a client's months and two rows instead of grouping, sorting and
 *   picking spellings per request. `json`, not `jsonb`: it is only ever written whole and sent out as text.
 */
export async function createAeoSummaryTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('aeo_summary_counts')} (
      client_id bigint not null,
      month text not null,
      query_id bigint not null,
      engine text not null,
      captures integer not null,
      present integer not null,
      named_first integer not null,
      mentioned integer not null,
      primary key (client_id, month, query_id, engine)
    )`.execute(db)
  await sql`
    create table ${t('aeo_summary_competitors')} (
      client_id bigint not null,
      month text not null,
      name_key text not null,
      answers integer not null,
      primary key (client_id, month, name_key)
    )`.execute(db)
  await sql`
    create table ${t('aeo_summary_spellings')} (
      client_id bigint not null,
      month text not null,
      name_key text not null,
      spelling text not null,
      n integer not null,
      primary key (client_id, month, name_key, spelling)
    )`.execute(db)
  await sql`
    create table ${t('aeo_summary_months')} (
      client_id bigint not null,
      month text not null,
      query_ids bigint[] not null,
      counts json not null,
      competitors json not null,
      primary key (client_id, month)
    )`.execute(db)
}
