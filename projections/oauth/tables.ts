import type { ColumnType } from 'kysely'

/** The OAuth read models as kysely sees them (DDL in migrations/read-models/oauth.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface OAuthClientsTable {
  id: number
  client_name: string
  redirect_uris: string[]
  client_uri: string | null
  logo_uri: string | null
  software_id: string | null
  software_version: string | null
  registered_at: Timestamp
}

export interface OAuthGrantsTable {
  id: number
  org_id: number
  user_id: number
  client_id: number
  /** Space-separated, canonical order. */
  scopes: string
  resource: string | null
  created_at: Timestamp
  last_issued_at: Timestamp | null
  generation: ColumnType<number, number | undefined, number>
  /**
   * When the grant stops working unless used: its code's expiry until the exchange, then its refresh token's
   * (with offline_access, sliding) or its latest access token's.
   */
  expires_at: Timestamp
  revoked_at: Timestamp | null
  revoked_reason: string | null
}

export interface OAuthAccessTokensTable {
  token_hash: string
  grant_id: number
  expires_at: Timestamp
}

export interface OAuthReadModels {
  oauth_clients: OAuthClientsTable
  oauth_grants: OAuthGrantsTable
  oauth_access_tokens: OAuthAccessTokensTable
}
