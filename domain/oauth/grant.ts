import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import type { GrantRevocationReason, OAuthGrantEvent } from './events.js'
import { ACCESS_TOKEN_TTL_MS, AUTHORIZATION_CODE_TTL_MS, REFRESH_TOKEN_TTL_MS, later } from './lifetimes.js'
import type { OAuthScope } from './scopes.js'

/**
 * One grant, one stream: `oauth_grant-<id>`. A grant is one member's consent for one app; the stream holds
 * its authorization code and every token generation, because the invariants that matter are about all of
 * them at once: a code works once and a reused code revokes what it issued; a refresh token works once and
 * an already-rotated one revokes the whole grant.
 */
export const oauthGrantStream = (grantId: number) => `oauth_grant-${grantId}`

export interface OAuthGrantState {
  readonly exists: boolean
  readonly orgId: number | null
  readonly userId: number | null
  readonly clientId: number | null
  readonly scopes: readonly OAuthScope[]
  readonly redirectUri: string
  readonly code: { readonly hash: string; readonly challenge: string; readonly expiresAt: string; readonly used: boolean } | null
  /** The live refresh token (null without offline_access, before the exchange, or once revoked). */
  readonly refresh: { readonly hash: string; readonly expiresAt: string; readonly generation: number } | null
  /** Refresh tokens already rotated away: presenting one again is the replay that revokes the grant. */
  readonly retiredRefreshHashes: readonly string[]
  /** Every access token issued (to recognize one at the revocation endpoint). */
  readonly accessHashes: readonly string[]
  readonly generation: number
  readonly revoked: GrantRevocationReason | null
}

/** New token digests and the time of the request; the command layer mints the plaintexts. */
interface NewTokens {
  readonly now: Date
  readonly access_token_hash: string
  readonly refresh_token_hash: string
}

/** Who revokes through the API: an organization's credential (only its own grants) or a platform one. */
export interface GrantRevoker {
  readonly orgId: number | null
  /** Set: only this member's own grants (a member who is not an owner). */
  readonly userId: number | null
}

export type OAuthGrantCommand =
  | {
      type: 'ApproveOAuthGrant'
      grant_id: number
      org_id: number
      user_id: number
      client_id: number
      scopes: OAuthScope[]
      resource: string | null
      redirect_uri: string
      code_hash: string
      code_challenge: string
      now: Date
    }
  | ({
      type: 'ExchangeOAuthCode'
      grant_id: number
      client_id: number
      redirect_uri: string
      code_hash: string
      /** base64url(sha256(code_verifier)): what the challenge must equal (RFC 7636 S256). */
      verifier_challenge: string
    } & NewTokens)
  | ({ type: 'RefreshOAuthTokens'; grant_id: number; client_id: number; presented_refresh_hash: string } & NewTokens)
  | { type: 'RevokeOAuthToken'; grant_id: number; token_hash: string }
  | { type: 'RevokeOAuthGrant'; grant_id: number; revoker: GrantRevoker }

/** RFC 6749 invalid_grant: the code or refresh token is unknown, expired, used, revoked or not this client's. */
const invalidGrant = (detail: string) => new DomainError('invalid_grant', 'The grant is invalid', detail)

const expired = (at: string, now: Date) => new Date(at).getTime() <= now.getTime()

export const oauthGrant: Aggregate<OAuthGrantState, OAuthGrantCommand, OAuthGrantEvent> = {
  streamOf: oauthGrantStream,
  orgOf: (state) => state.orgId,
  initialState: () => ({
    exists: false,
    orgId: null,
    userId: null,
    clientId: null,
    scopes: [],
    redirectUri: '',
    code: null,
    refresh: null,
    retiredRefreshHashes: [],
    accessHashes: [],
    generation: 0,
    revoked: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'OAuthGrantApproved': {
        const d = event.data
        return {
          ...state,
          exists: true,
          orgId: d.org_id,
          userId: d.user_id,
          clientId: d.client_id,
          scopes: d.scopes,
          redirectUri: d.redirect_uri,
          code: { hash: d.code_hash, challenge: d.code_challenge, expiresAt: d.code_expires_at, used: false },
        }
      }
      case 'OAuthCodeExchanged': {
        const d = event.data
        return {
          ...state,
          code: state.code && { ...state.code, used: true },
          generation: 1,
          accessHashes: [...state.accessHashes, d.access_token_hash],
          refresh:
            d.refresh_token_hash && d.refresh_expires_at
              ? { hash: d.refresh_token_hash, expiresAt: d.refresh_expires_at, generation: 1 }
              : null,
        }
      }
      case 'OAuthTokensRefreshed': {
        const d = event.data
        return {
          ...state,
          generation: d.generation,
          accessHashes: [...state.accessHashes, d.access_token_hash],
          retiredRefreshHashes: [...state.retiredRefreshHashes, d.previous_refresh_hash],
          refresh: { hash: d.refresh_token_hash, expiresAt: d.refresh_expires_at, generation: d.generation },
        }
      }
      case 'OAuthGrantRevoked':
        return { ...state, revoked: event.data.reason, refresh: null }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ApproveOAuthGrant': {
        if (state.exists) throw new DomainError('already_exists', 'OAuth grant already exists', `oauth_grant ${command.grant_id}`)
        if (command.scopes.length === 0) throw new DomainError('invalid_scope', 'A grant needs at least one scope')
        const { type: _type, now, ...data } = command
        return [{ type: 'OAuthGrantApproved', data: { ...data, code_expires_at: later(now, AUTHORIZATION_CODE_TTL_MS) } }]
      }

      case 'ExchangeOAuthCode': {
        // Order of checks (pinned by the tests): a code we do not know answers alike whatever else is wrong;
        // a dead grant stays dead; a code used before revokes the grant (RFC 6749 section 4.1.2: every token
        // issued from it) before any other check can hide the replay; then client, redirect URI, expiry and
        // finally the PKCE proof.
        if (!state.exists || !state.code || state.code.hash !== command.code_hash) throw invalidGrant('unknown authorization code')
        if (state.revoked) throw invalidGrant('the grant was revoked')
        if (state.code.used) return [{ type: 'OAuthGrantRevoked', data: { grant_id: command.grant_id, reason: 'code_reused' } }]
        if (state.clientId !== command.client_id) throw invalidGrant('the code was issued to another client')
        if (state.redirectUri !== command.redirect_uri) throw invalidGrant('redirect_uri differs from the authorization request')
        if (expired(state.code.expiresAt, command.now)) throw invalidGrant('the authorization code expired')
        if (state.code.challenge !== command.verifier_challenge) throw invalidGrant('code_verifier does not match the code_challenge')
        const offline = state.scopes.includes('offline_access')
        return [
          {
            type: 'OAuthCodeExchanged',
            data: {
              grant_id: command.grant_id,
              access_token_hash: command.access_token_hash,
              access_expires_at: later(command.now, ACCESS_TOKEN_TTL_MS),
              refresh_token_hash: offline ? command.refresh_token_hash : null,
              refresh_expires_at: offline ? later(command.now, REFRESH_TOKEN_TTL_MS) : null,
            },
          },
        ]
      }

      case 'RefreshOAuthTokens': {
        if (!state.exists) throw invalidGrant('unknown refresh token')
        if (state.revoked) throw invalidGrant('the grant was revoked')
        // Replay of a rotated token: someone holds a copy. Revoke everything (OAuth 2.1 section 4.3.1).
        if (state.retiredRefreshHashes.includes(command.presented_refresh_hash)) {
          return [{ type: 'OAuthGrantRevoked', data: { grant_id: command.grant_id, reason: 'refresh_token_reused' } }]
        }
        if (!state.refresh || state.refresh.hash !== command.presented_refresh_hash) throw invalidGrant('unknown refresh token')
        if (state.clientId !== command.client_id) throw invalidGrant('the refresh token was issued to another client')
        if (expired(state.refresh.expiresAt, command.now)) throw invalidGrant('the refresh token expired')
        return [
          {
            type: 'OAuthTokensRefreshed',
            data: {
              grant_id: command.grant_id,
              generation: state.refresh.generation + 1,
              previous_refresh_hash: state.refresh.hash,
              access_token_hash: command.access_token_hash,
              access_expires_at: later(command.now, ACCESS_TOKEN_TTL_MS),
              refresh_token_hash: command.refresh_token_hash,
              refresh_expires_at: later(command.now, REFRESH_TOKEN_TTL_MS),
            },
          },
        ]
      }

      case 'RevokeOAuthToken': {
        // RFC 7009: an unknown or already-revoked token is no error, and changes nothing.
        if (!state.exists || state.revoked) return []
        const known =
          state.refresh?.hash === command.token_hash ||
          state.retiredRefreshHashes.includes(command.token_hash) ||
          state.accessHashes.includes(command.token_hash)
        if (!known) return []
        return [{ type: 'OAuthGrantRevoked', data: { grant_id: command.grant_id, reason: 'token_revoked' } }]
      }

      case 'RevokeOAuthGrant': {
        const { revoker } = command
        const visible =
          state.exists &&
          (revoker.orgId === null || revoker.orgId === state.orgId) &&
          (revoker.userId === null || revoker.userId === state.userId)
        if (!visible) throw new NotFoundError('oauth_grant', command.grant_id)
        if (state.revoked) return []
        return [{ type: 'OAuthGrantRevoked', data: { grant_id: command.grant_id, reason: 'revoked' } }]
      }
    }
  },
}
