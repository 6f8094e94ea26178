import { createHash, randomBytes } from 'node:crypto'
import { DomainError } from '../domain/shared/errors.js'
import { checkClientMetadata, oauthClient, type ClientMetadata, type OAuthClientState } from '../domain/oauth/client.js'
import { oauthGrant, type GrantRevoker, type OAuthGrantState } from '../domain/oauth/grant.js'
import { ACCESS_TOKEN_TTL_MS } from '../domain/oauth/lifetimes.js'
import type { OAuthScope } from '../domain/oauth/scopes.js'
import { loadState, handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

/**
 * The write side of the OAuth authorization server. Codes and tokens are opaque: a prefix, the grant id and
 * 32 random bytes (`rro_12.…`). The grant id lets the token endpoint load the one stream that decides
 * (`oauth_grant-12`) without a lookup, so reuse detection never waits for a read model; the random part is
 * the secret. Only sha256 digests are stored, in events and read models alike.
 */
export const ACCESS_TOKEN_PREFIX = 'rro_'
export const REFRESH_TOKEN_PREFIX = 'rrr_'
export const CODE_PREFIX = 'rrc_'

const TOKEN_SHAPE = /^(rro_|rrr_|rrc_)([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url')

const mint = (prefix: string, grantId: number) => `${prefix}${grantId}.${randomBytes(32).toString('base64url')}`

/** The kind and grant of a well-formed code or token; null for anything else (never throws). */
export function parseOAuthSecret(text: string): { kind: 'access' | 'refresh' | 'code'; grantId: number } | null {
  const match = TOKEN_SHAPE.exec(text)
  if (!match) return null
  const grantId = Number(match[2])
  if (!Number.isSafeInteger(grantId)) return null
  return { kind: match[1] === ACCESS_TOKEN_PREFIX ? 'access' : match[1] === REFRESH_TOKEN_PREFIX ? 'refresh' : 'code', grantId }
}

/** A client's state, folded from its stream (so a client can authorize the moment it registered). */
export async function loadOAuthClient(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<OAuthClientState> {
  return loadState(deps.store, oauthClient, clientId)
}

export async function loadOAuthGrant(deps: Pick<WriteDeps, 'store'>, grantId: number): Promise<OAuthGrantState> {
  return loadState(deps.store, oauthGrant, grantId)
}

export interface RegisteredClient {
  readonly clientId: number
  readonly position: Position | null
}

export async function registerOAuthClient(deps: WriteDeps, context: CommandContext, metadata: ClientMetadata): Promise<RegisteredClient> {
  checkClientMetadata(metadata) // before an id is spent on a refusal
  const clientId = await deps.ids.next('oauth_client')
  const outcome = await handleCommand(deps, {
    aggregate: oauthClient,
    id: clientId,
    command: { type: 'RegisterOAuthClient', client_id: clientId, metadata },
    context,
    orgId: null,
  })
  return { clientId, position: outcome.position }
}

export interface ApprovedGrant {
  readonly grantId: number
  /** The authorization code, shown once (in the redirect). */
  readonly code: string
  readonly position: Position | null
}

export async function approveOAuthGrant(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    orgId: number
    userId: number
    clientId: number
    scopes: OAuthScope[]
    resource: string | null
    redirectUri: string
    codeChallenge: string
  },
): Promise<ApprovedGrant> {
  const grantId = await deps.ids.next('oauth_grant')
  const code = mint(CODE_PREFIX, grantId)
  const outcome = await handleCommand(deps, {
    aggregate: oauthGrant,
    id: grantId,
    command: {
      type: 'ApproveOAuthGrant',
      grant_id: grantId,
      org_id: input.orgId,
      user_id: input.userId,
      client_id: input.clientId,
      scopes: input.scopes,
      resource: input.resource,
      redirect_uri: input.redirectUri,
      code_hash: sha256Hex(code),
      code_challenge: input.codeChallenge,
      now: deps.clock(),
    },
    context,
  })
  return { grantId, code, position: outcome.position }
}

export interface IssuedTokens {
  readonly grantId: number
  readonly accessToken: string
  readonly refreshToken: string | null
  readonly expiresIn: number
  readonly scopes: readonly OAuthScope[]
}

/**
 * The answer of a token request: tokens, or the RFC 6749 error. A refusal that revoked the grant (a reused
 * code or refresh token) carries the position of the revocation so the caller can wait until access tokens
 * stop working before it answers.
 */
export type TokenOutcome =
  | { readonly ok: true; readonly tokens: IssuedTokens; readonly position: Position | null }
  | { readonly ok: false; readonly error: 'invalid_grant'; readonly detail: string; readonly position: Position | null }

const refused = (detail: string, position: Position | null = null): TokenOutcome => ({
  ok: false,
  error: 'invalid_grant',
  detail,
  position,
})

/** Runs a grant command; domain invalid_grant refusals become outcomes, everything else propagates. */
async function onGrant(
  deps: WriteDeps,
  context: CommandContext,
  grantId: number,
  command: Parameters<typeof oauthGrant.decide>[0],
  tokens: { access: string; refresh: string },
): Promise<TokenOutcome> {
  try {
    const outcome = await handleCommand(deps, { aggregate: oauthGrant, id: grantId, command, context })
    const revoked = outcome.events.find((e) => e.type === 'OAuthGrantRevoked')
    if (revoked) {
      return refused(
        revoked.data.reason === 'code_reused'
          ? 'the authorization code was already used: the grant is revoked'
          : 'the refresh token was already used: the grant is revoked',
        outcome.position,
      )
    }
    const issued = outcome.events.find((e) => e.type === 'OAuthCodeExchanged' || e.type === 'OAuthTokensRefreshed')
    if (!issued) return refused('nothing was issued')
    return {
      ok: true,
      tokens: {
        grantId,
        accessToken: tokens.access,
        refreshToken: issued.data.refresh_token_hash === null ? null : tokens.refresh,
        expiresIn: ACCESS_TOKEN_TTL_MS / 1000,
        scopes: outcome.state.scopes,
      },
      position: outcome.position,
    }
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalid_grant') return refused(error.detail ?? error.message)
    throw error
  }
}

const grantContext = (context: CommandContext, grantId: number): CommandContext => ({ ...context, actor: { kind: 'oauth', id: grantId } })

/** grant_type=authorization_code. Never throws for a bad code: that is an invalid_grant outcome. */
export async function exchangeOAuthCode(
  deps: WriteDeps,
  context: CommandContext,
  input: { code: string; clientId: number; redirectUri: string; codeVerifier: string },
): Promise<TokenOutcome> {
  const parsed = parseOAuthSecret(input.code)
  if (parsed?.kind !== 'code') return refused('unknown authorization code')
  const access = mint(ACCESS_TOKEN_PREFIX, parsed.grantId)
  const refresh = mint(REFRESH_TOKEN_PREFIX, parsed.grantId)
  return onGrant(
    deps,
    grantContext(context, parsed.grantId),
    parsed.grantId,
    {
      type: 'ExchangeOAuthCode',
      grant_id: parsed.grantId,
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      code_hash: sha256Hex(input.code),
      verifier_challenge: s256(input.codeVerifier),
      now: deps.clock(),
      access_token_hash: sha256Hex(access),
      refresh_token_hash: sha256Hex(refresh),
    },
    { access, refresh },
  )
}

/** grant_type=refresh_token: rotates; a replayed old refresh token revokes the grant. */
export async function refreshOAuthTokens(
  deps: WriteDeps,
  context: CommandContext,
  input: { refreshToken: string; clientId: number },
): Promise<TokenOutcome> {
  const parsed = parseOAuthSecret(input.refreshToken)
  if (parsed?.kind !== 'refresh') return refused('unknown refresh token')
  const access = mint(ACCESS_TOKEN_PREFIX, parsed.grantId)
  const refresh = mint(REFRESH_TOKEN_PREFIX, parsed.grantId)
  return onGrant(
    deps,
    grantContext(context, parsed.grantId),
    parsed.grantId,
    {
      type: 'RefreshOAuthTokens',
      grant_id: parsed.grantId,
      client_id: input.clientId,
      presented_refresh_hash: sha256Hex(input.refreshToken),
      now: deps.clock(),
      access_token_hash: sha256Hex(access),
      refresh_token_hash: sha256Hex(refresh),
    },
    { access, refresh },
  )
}

/** RFC 7009: revokes the grant of a known access or refresh token; anything else changes nothing. */
export async function revokeOAuthToken(deps: WriteDeps, context: CommandContext, token: string): Promise<{ position: Position | null }> {
  const parsed = parseOAuthSecret(token)
  if (!parsed || parsed.kind === 'code') return { position: null }
  const outcome = await handleCommand(deps, {
    aggregate: oauthGrant,
    id: parsed.grantId,
    command: { type: 'RevokeOAuthToken', grant_id: parsed.grantId, token_hash: sha256Hex(token) },
    context: grantContext(context, parsed.grantId),
  })
  return { position: outcome.position }
}

/** revoke_oauth_grant: not_found for a grant the revoker may not see (another organization, another member). */
export async function revokeOAuthGrant(
  deps: WriteDeps,
  context: CommandContext,
  input: { grantId: number; revoker: GrantRevoker },
): Promise<{ position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: oauthGrant,
    id: input.grantId,
    command: { type: 'RevokeOAuthGrant', grant_id: input.grantId, revoker: input.revoker },
    context,
  })
  return { position: outcome.position }
}
