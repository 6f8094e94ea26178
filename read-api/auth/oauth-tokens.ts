import { ACCESS_TOKEN_PREFIX, parseOAuthSecret, sha256Hex } from '../../commands/oauth.js'
import { RoleSchema } from '../../domain/people/roles.js'
import { apiScopesOf, parseOAuthScope, ROLE_SCOPE_CAP } from '../../domain/oauth/scopes.js'
import type { ReadDb } from '../../projections/tables.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'

/**
 * Resolves `Authorization: Bearer rro_…` to a caller: the grant's organization, the grant's API scopes
 * (offline_access is not one), the member it acts for (`caller.member`, so member-management RPCs apply the
 * member's role) and the actor `{kind: 'oauth', id: <grant id>}`, so rate limits, metering and the audit
 * trail treat a token exactly like a key of that organization.
 *
 * The member's standing is checked on every request, not only at consent: a member who was removed (or is no
 * longer active) has no working tokens, and a member whose role changed keeps only what the new role allows
 * (a viewer: nothing). Fails closed like keys: an unknown, expired or revoked token, one of a revoked grant or
 * of a member who can no longer authorize is 401, and the answer does not say which.
 */
export async function authenticateOAuthToken(read: ReadDb, token: string, now: Date): Promise<Caller> {
  const refused = () => new ApiError('unauthorized', 'unknown, expired or revoked credentials')
  const parsed = token.startsWith(ACCESS_TOKEN_PREFIX) ? parseOAuthSecret(token) : null
  if (parsed?.kind !== 'access') throw refused()
  const row = await read
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .innerJoin('org_members as m', (join) => join.onRef('m.user_id', '=', 'g.user_id').onRef('m.org_id', '=', 'g.org_id'))
    .select(['g.id', 'g.org_id', 'g.user_id', 'g.scopes', 'm.role'])
    .where('t.token_hash', '=', sha256Hex(token))
    .where('t.grant_id', '=', parsed.grantId)
    .where('t.expires_at', '>', now)
    .where('g.revoked_at', 'is', null)
    .where('m.status', '=', 'active')
    .executeTakeFirst()
  if (!row) throw refused()
  const role = RoleSchema.safeParse(row.role)
  if (!role.success) throw refused()
  const cap = ROLE_SCOPE_CAP[role.data]
  const scopes = apiScopesOf(parseOAuthScope(row.scopes)).filter((s) => cap.includes(s))
  if (scopes.length === 0) throw refused()
  return {
    actor: { kind: 'oauth', id: row.id },
    orgId: row.org_id,
    scopes,
    sandbox: false,
    rateLimitPerMinute: null,
    member: { userId: row.user_id, role: role.data },
  }
}
