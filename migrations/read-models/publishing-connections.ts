import { sql, type Kysely } from 'kysely'

/**
 * The site connections sub-area's read models (projections/publishing/connections): one row per client that
 * has any part of a connection. Never a secret: the passwords and the private key stay sealed in the log;
 * a row says only whether a password is set.
 */
export async function createSiteConnectionsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('site_connections')} (
      client_id bigint primary key,
      org_id bigint not null,
      wp_base_url text,
      wp_username text,
      wp_verified boolean,
      wp_set_at timestamptz,
      check_ok boolean,
      checked_at timestamptz,
      check_base_url text,
      site_name text,
      wp_version text,
      theme jsonb,
      plugins jsonb,
      seo_plugin text,
      redirection boolean,
      elementor boolean,
      wp_user jsonb,
      check_error_category text,
      check_error text,
      ftp_protocol text,
      ftp_host text,
      ftp_port integer,
      ftp_username text,
      ftp_has_password boolean,
      ftp_root_path text,
      ftp_set_at timestamptz,
      ssh_public_key text,
      ssh_fingerprint text,
      ssh_created_at timestamptz,
      webhook_url text,
      webhook_set_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('site_connections_org')} on ${t('site_connections')} (org_id, client_id)`.execute(db)
}
