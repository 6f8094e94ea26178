import { sql, type Kysely } from 'kysely'

/** The id sequence of identity providers (the provider ids the API and the sign-in URLs show). */
export const SSO_ID_KINDS = ['sso_provider'] as const

/**
 * oidc_login_states: the work table of OIDC sign-ins in flight (read-api/sso/login-states.ts). One row per
 * started sign-in: the sha256 of `state`, the nonce, the PKCE verifier (sealed with the service key), the
 * sha256 of the browser-binding cookie and where to return. A row is claimed once (`used_at`, set by an
 * atomic update) and only within 10 minutes of `created_at`.
 *
 * Why a work table and not events: these are short-lived one-time secrets with no business meaning. In the
 * log they would live forever (a verifier must not), a rebuild would bring them back, and single use needs
 * an atomic claim that any API process can make; an update of one row gives exactly that. What is auditable
 * (a sign-in, a refusal and its reason, a provisioning) is an event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of SSO_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
  await sql`
    create table oidc_login_states (
      state_hash text primary key,
      provider_id bigint not null,
      browser_hash text not null,
      nonce text not null,
      code_verifier_sealed text not null,
      return_to text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db)
  await sql`create index oidc_login_states_expiry on oidc_login_states (expires_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists oidc_login_states`.execute(db)
  for (const kind of SSO_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
