import type { ColumnType } from 'kysely'

/** The SSO read models as kysely sees them (DDL in migrations/read-models/sso.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface SsoProvidersTable {
  id: number
  org_id: number
  /** oidc today; saml next. */
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

export interface SsoReadModels {
  sso_providers: SsoProvidersTable
}
