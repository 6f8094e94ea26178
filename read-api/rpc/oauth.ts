import { z } from 'zod'
import { revokeOAuthGrant } from '../../commands/oauth.js'
import { Id } from '../../domain/shared/values.js'
import type { Caller } from '../caller.js'
import { requireOrgId } from '../caller.js'
import { rpc } from '../registry.js'
import { GrantId, UserId } from './ids.js'

const domain = 'org-admin'

const GrantView = z.object({
  id: Id,
  org_id: Id,
  user_id: UserId,
  client_id: z.string().describe('The app (its OAuth client_id)'),
  client_name: z.string(),
  scopes: z.string().describe('Space-separated: read write jobs offline_access'),
  resource: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable().describe('When tokens were last issued (code exchange or refresh)'),
  expires_at: z
    .string()
    .describe(
      'When the grant stops working unless the app refreshes: its refresh token’s expiry (30 days, sliding), or its last access token’s without offline_access',
    ),
  status: z.enum(['active', 'expired', 'revoked']),
  revoked_at: z.string().nullable(),
  revoked_reason: z.string().nullable().describe('revoked, token_revoked, code_reused or refresh_token_reused'),
})

/**
 * Whose grants a caller sees and revokes: a credential acting for a member who is not an owner (an OAuth
 * token) only that member's own; owners and API keys (which act at owner level) the whole organization.
 */
const ownOnly = (caller: Caller): number | null => (caller.member && caller.member.role !== 'owner' ? caller.member.userId : null)

export const oauthRpcs = [
  rpc({
    name: 'oauth_list_grants',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's OAuth grants (Connected apps): which member connected which app with which scopes, and when it last got tokens. Owners (and API keys) see the whole organization, optionally one member's with user_id; an OAuth token of another member sees that member's own grants. Active grants only unless include_revoked (then expired and revoked ones too, with their status).",
    example: { params: { include_revoked: false } },
    params: z.strictObject({
      user_id: UserId.optional().describe('Only grants this member made (default every member the caller may see)'),
      include_revoked: z.boolean().default(false).describe('Also list revoked grants (default false)'),
    }),
    result: z.array(GrantView),
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const own = ownOnly(ctx.caller)
      let query = ctx.read
        .selectFrom('oauth_grants as g')
        .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
        .select([
          'g.id',
          'g.org_id',
          'g.user_id',
          'g.client_id',
          'c.client_name',
          'g.scopes',
          'g.resource',
          'g.created_at',
          'g.last_issued_at',
          'g.expires_at',
          'g.revoked_at',
          'g.revoked_reason',
        ])
        .where('g.org_id', '=', orgId)
        .orderBy('g.id')
      if (own !== null) query = query.where('g.user_id', '=', own)
      if (ctx.params.user_id !== undefined) query = query.where('g.user_id', '=', ctx.params.user_id)
      const now = ctx.write.clock()
      if (!ctx.params.include_revoked) query = query.where('g.revoked_at', 'is', null).where('g.expires_at', '>', now)
      const rows = await query.execute()
      return rows.map((r) => ({
        id: r.id,
        org_id: r.org_id,
        user_id: r.user_id,
        client_id: String(r.client_id),
        client_name: r.client_name,
        scopes: r.scopes,
        resource: r.resource,
        created_at: r.created_at.toISOString(),
        last_used_at: r.last_issued_at === null ? null : r.last_issued_at.toISOString(),
        expires_at: r.expires_at.toISOString(),
        status: r.revoked_at !== null ? ('revoked' as const) : r.expires_at <= now ? ('expired' as const) : ('active' as const),
        revoked_at: r.revoked_at === null ? null : r.revoked_at.toISOString(),
        revoked_reason: r.revoked_reason,
      }))
    },
  }),
  rpc({
    name: 'revoke_oauth_grant',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Disconnect an app: revoke an OAuth grant and every token it issued (they answer 401 from then on). A grant of another organization answers not_found; a member who is not an owner may revoke only their own grants. Revoking twice is harmless.',
    example: { params: { grant_id: 41 } },
    params: z.strictObject({ grant_id: GrantId }),
    result: z.object({ id: Id, revoked: z.literal(true) }),
    async handler(ctx) {
      const own = ownOnly(ctx.caller)
      await revokeOAuthGrant(ctx.write, ctx.command, { grantId: ctx.params.grant_id, revoker: { orgId: ctx.orgId, userId: own } })
      return { id: ctx.params.grant_id, revoked: true as const }
    },
  }),
]
