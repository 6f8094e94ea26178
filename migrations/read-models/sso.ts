import { sql, type Kysely } from 'kysely'

/**
 * Identity providers (projections/sso). Never the client secret, sealed or not: only whether there is one.
 * Sign-in folds the provider's stream for the sealed secret.
 */
export async function createSsoTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('sso_providers')} (
      id bigint primary key,
      org_id bigint not null,
      kind text not null,
      label text not null,
      issuer text not null,
      client_id text not null,
      has_client_secret boolean not null,
      allowed_domains text[] not null,
      default_role text not null,
      hosted_domain text not null,
      allow_signup boolean not null,
      active boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('sso_providers_org')} on ${t('sso_providers')} (org_id, id) where deleted_at is null`.execute(db)
  await sql`create index ${sql.id('sso_providers_domains')} on ${t('sso_providers')} using gin (allowed_domains) where deleted_at is null and active`.execute(
    db,
  )
  // SAML providers: nothing secret here (the IdP certificate is public); provider_key names it in its URLs.
  await sql`
    create table ${t('saml_providers')} (
      id bigint primary key,
      org_id bigint not null,
      provider_key text not null unique,
      label text not null,
      idp_entity_id text not null,
      sso_url text not null,
      certificates text[] not null,
      metadata_xml text not null,
      email_attribute text not null,
      allow_unsolicited boolean not null,
      allowed_domains text[] not null,
      default_role text not null,
      allow_signup boolean not null,
      active boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('saml_providers_org')} on ${t('saml_providers')} (org_id, id) where deleted_at is null`.execute(db)
  await sql`create index ${sql.id('saml_providers_domains')} on ${t('saml_providers')} using gin (allowed_domains) where deleted_at is null and active`.execute(
    db,
  )
}
