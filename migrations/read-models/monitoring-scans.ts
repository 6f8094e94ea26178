import { sql, type Kysely } from 'kysely'

/** The scans sub-area's read models (projections/monitoring/scans). */
export async function createScansTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('site_scans')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      scan_type text not null,
      trigger text not null,
      date text not null,
      status text not null,
      attempt integer not null default 0,
      worker text,
      lease_expires_at timestamptz,
      start_url text,
      pages_found integer not null default 0,
      pages_fetched integer not null default 0,
      pages_recorded integer not null default 0,
      pages_unchanged integer not null default 0,
      pages_skipped integer not null default 0,
      pages_failed integer not null default 0,
      sitemaps_read integer not null default 0,
      keywords_checked integer not null default 0,
      pages_scanned integer not null default 0,
      error_code text,
      error_message text,
      queued_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  // get_last_scan_session / list_scan_sessions: a client's scans, newest first (per type).
  await sql`create index ${sql.id('site_scans_client')} on ${t('site_scans')} (client_id, scan_type, id desc)`.execute(db)
  // The runner's look for work: open scans, oldest first.
  await sql`create index ${sql.id('site_scans_open')} on ${t('site_scans')} (id) where status in ('queued', 'running')`.execute(db)
  await sql`
    create table ${t('site_scan_pages')} (
      scan_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      url text not null,
      page_id bigint,
      status integer,
      in_sitemap boolean not null,
      depth integer,
      outcome text not null,
      code text,
      primary key (scan_id, url)
    )`.execute(db)
  await sql`create index ${sql.id('site_scan_pages_client')} on ${t('site_scan_pages')} (client_id)`.execute(db)
  await sql`
    create table ${t('scan_cadences')} (
      client_id bigint primary key,
      org_id bigint not null,
      frequency text not null,
      scan_type text not null,
      updated_at timestamptz not null
    )`.execute(db)
}
