import { ACCESS_TOKEN_PREFIX, parseOAuthSecret, sha256Hex } from '../../commands/oauth.js'
import { apiScopesOf, parseOAuthScope } from '../../domain/oauth/scopes.js'
import type { ReadDb } from '../../projections/tables.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'

/**
 * Resolves `Authorization: Bearer rro_…` to a caller: the grant's organization, the grant's API scopes
 * (offline_access is not one), and the actor `{kind: 'oauth', id: <grant id>}`, so rate limits, metering and
 * the audit trail treat a token exactly like a key of that organization. Fails closed like keys: an unknown,
 * expired or revoked token, or one of a revoked grant, is 401 and the answer does not say which.
 */
export async function authenticateOAuthToken(read: ReadDb, token: string, now: Date): Promise<Caller> {
  const parsed = token.startsWith(ACCESS_TOKEN_PREFIX) ? parseOAuthSecret(token) : null
  if (!parsed || parsed.kind !== 'access') throw new ApiError('unauthorized', 'unknown, expired or revoked credentials')
  const row = await read
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select(['g.id', 'g.org_id', 'g.scopes'])
    .where('t.token_hash', '=', sha256Hex(token))
    .where('t.grant_id', '=', parsed.grantId)
    .where('t.expires_at', '>', now)
    .where('g.revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row) throw new ApiError('unauthorized', 'unknown, expired or revoked credentials')
  return {
    actor: { kind: 'oauth', id: row.id },
    orgId: row.org_id,
    scopes: apiScopesOf(parseOAuthScope(row.scopes)),
    sandbox: false,
    rateLimitPerMinute: null,
  }
}
