import { z } from 'zod'
import { Id } from '../shared/values.js'
import { OAUTH_SCOPES } from './scopes.js'

/** sha256 of a code or token, hex. Plaintext codes and tokens never enter the log. */
const Digest = z.string().regex(/^[0-9a-f]{64}$/)
/** A PKCE S256 code_challenge: base64url of a sha256, 43 characters. */
const S256Challenge = z.string().regex(/^[A-Za-z0-9_-]{43}$/)
const Instant = z.iso.datetime({ offset: true })
const Scopes = z.array(z.enum(OAUTH_SCOPES)).min(1)

/** A public client registered itself (RFC 7591). Platform-level: a client belongs to no organization. */
export const OAuthClientRegistered = z.object({
  client_id: Id,
  client_name: z.string().min(1).max(200),
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(20),
  /** Always `none`: only public clients (PKCE instead of a secret). */
  token_endpoint_auth_method: z.literal('none'),
  client_uri: z.string().max(2000).nullable(),
  logo_uri: z.string().max(2000).nullable(),
  software_id: z.string().max(200).nullable(),
  software_version: z.string().max(100).nullable(),
})

/**
 * A member consented: the grant exists and one authorization code (10 minutes, single use) was issued for it.
 * The code's PKCE challenge and redirect URI are kept so the token endpoint can check them.
 */
export const OAuthGrantApproved = z.object({
  grant_id: Id,
  org_id: Id,
  user_id: Id,
  client_id: Id,
  scopes: Scopes,
  /** RFC 8707 resource indicator the app asked for (the MCP server's URL), if any. */
  resource: z.string().max(2000).nullable(),
  redirect_uri: z.string().max(2000),
  code_hash: Digest,
  code_challenge: S256Challenge,
  code_expires_at: Instant,
})

/** The code was exchanged: the first token generation (a refresh token only with offline_access). */
export const OAuthCodeExchanged = z.object({
  grant_id: Id,
  access_token_hash: Digest,
  access_expires_at: Instant,
  refresh_token_hash: Digest.nullable(),
  refresh_expires_at: Instant.nullable(),
})

/** A refresh token was used: it is retired and a new generation (access + refresh token) replaces it. */
export const OAuthTokensRefreshed = z.object({
  grant_id: Id,
  generation: z.number().int().min(2),
  previous_refresh_hash: Digest,
  access_token_hash: Digest,
  access_expires_at: Instant,
  refresh_token_hash: Digest,
  refresh_expires_at: Instant,
})

export const GRANT_REVOCATION_REASONS = ['code_reused', 'refresh_token_reused', 'token_revoked', 'revoked'] as const

/** The grant ended: every token it issued stops working. */
export const OAuthGrantRevoked = z.object({
  grant_id: Id,
  reason: z.enum(GRANT_REVOCATION_REASONS),
})

export const oauthEventSchemas = {
  OAuthClientRegistered,
  OAuthGrantApproved,
  OAuthCodeExchanged,
  OAuthTokensRefreshed,
  OAuthGrantRevoked,
} as const

export type OAuthClientEvent = { type: 'OAuthClientRegistered'; data: z.infer<typeof OAuthClientRegistered> }

export type OAuthGrantEvent =
  | { type: 'OAuthGrantApproved'; data: z.infer<typeof OAuthGrantApproved> }
  | { type: 'OAuthCodeExchanged'; data: z.infer<typeof OAuthCodeExchanged> }
  | { type: 'OAuthTokensRefreshed'; data: z.infer<typeof OAuthTokensRefreshed> }
  | { type: 'OAuthGrantRevoked'; data: z.infer<typeof OAuthGrantRevoked> }

export type GrantRevocationReason = (typeof GRANT_REVOCATION_REASONS)[number]
