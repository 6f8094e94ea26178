import { sql, type Kysely } from 'kysely'

/**
 * The work tables of SAML sign-ins (read-api/saml/), for the reasons migrations/0020-sso.ts gives for OIDC's:
 * short-lived, single-use, no business meaning, and single use needs an atomic claim any API process can
 * make. What is auditable (a sign-in, a refusal and its reason, a provisioning) is an event.
 *
 * - saml_login_requests: one row per AuthnRequest the service issued: its ID (the InResponseTo a Response
 *   must carry), the provider, the sha256 of the browser-binding cookie and where to return. Claimed once
 *   (`used_at`), within 10 minutes of `created_at`.
 * - saml_seen_assertions: the replay cache. An assertion id (per provider) is inserted when a sign-in is
 *   accepted; a second insert of it is a replay. Kept until the assertion itself expires (`expires_at`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table saml_login_requests (
      request_id text primary key,
      provider_id bigint not null,
      browser_hash text not null,
      return_to text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db)
  await sql`create index saml_login_requests_expiry on saml_login_requests (expires_at)`.execute(db)
  await sql`
    create table saml_seen_assertions (
      provider_id bigint not null,
      assertion_hash text not null,
      expires_at timestamptz not null,
      primary key (provider_id, assertion_hash)
    )`.execute(db)
  await sql`create index saml_seen_assertions_expiry on saml_seen_assertions (expires_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists saml_seen_assertions`.execute(db)
  await sql`drop table if exists saml_login_requests`.execute(db)
}
