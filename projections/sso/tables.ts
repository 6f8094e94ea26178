import type { ColumnType } from 'kysely'

/** The SSO read models as kysely sees them (DDL in migrations/read-models/sso.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface SsoProvidersTable {
  id: number
  org_id: number
  /** Always oidc: SAML providers are saml_providers. */
  kind: string
  label: string
  issuer: string
  client_id: string
  has_client_secret: boolean
  allowed_domains: string[]
  default_role: string
  hosted_domain: string
  allow_signup: boolean
  active: boolean
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

export interface SamlProvidersTable {
  id: number
  org_id: number
  provider_key: string
  label: string
  idp_entity_id: string
  sso_url: string
  certificates: string[]
  metadata_xml: string
  email_attribute: string
  allow_unsolicited: boolean
  allowed_domains: string[]
  default_role: string
  allow_signup: boolean
  active: boolean
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

export interface SsoReadModels {
  sso_providers: SsoProvidersTable
  saml_providers: SamlProvidersTable
}
