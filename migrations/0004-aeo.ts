import { sql, type Kysely } from 'kysely'

/** Id sequences of the AI Visibility records (ids the API shows; never reused, even across a rebuild). */
export const AEO_ID_KINDS = ['aeo_query', 'aeo_run', 'aeo_capture', 'aeo_item'] as const

/**
 * Processor state that is not a read model (it is not derived from the log alone, and survives a rebuild):
 * - aeo_run_leases: which agent holds a claim on a queued run while its AeoRunClaimed is being recorded.
 *   A lease is valid only for the run revision it was taken at and until it expires, so a crash between
 *   the lease and the event never strands a run.
 * - aeo_capture_records: the raw engine record of each capture, kept out of the log so that it can be
 *   pruned after the retention period (the event carries its sha256).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of AEO_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
  await sql`
    create table aeo_run_leases (
      run_id bigint primary key,
      agent_key text not null,
      revision bigint not null,
      expires_at timestamptz not null
    )`.execute(db)
  await sql`
    create table aeo_capture_records (
      capture_id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      record_json text not null,
      created_at timestamptz not null default now(),
      pruned_at timestamptz
    )`.execute(db)
  await sql`create index aeo_capture_records_age on aeo_capture_records (created_at) where pruned_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table aeo_capture_records`.execute(db)
  await sql`drop table aeo_run_leases`.execute(db)
  for (const kind of AEO_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
