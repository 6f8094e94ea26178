import { z } from 'zod'
import { changeMemberRole, inviteMember, loadUser, removeMember } from '../../commands/people.js'
import { EmailSchema } from '../../domain/people/email.js'
import { canManageMembers, RoleSchema, type MemberManager } from '../../domain/people/roles.js'
import { Id } from '../../domain/shared/values.js'
import type { Caller } from '../caller.js'
import { requireOrgId } from '../caller.js'
import { ApiError } from '../errors.js'
import type { PeopleSettings } from '../people/settings.js'
import { rpc, type RpcContext } from '../registry.js'
import type { ServiceSettings } from '../settings.js'
import { UserId } from './ids.js'

const domain = 'org-admin'

/**
 * Members of an organization. Who may manage them: an API key with the write scope (keys carry scopes, not
 * roles, so a write key acts at owner level), or a credential acting for a signed-in member whose role is
 * owner (caller.member, set by the OAuth part). Other members' credentials are refused with 403 forbidden.
 */
export const managerOf = (caller: Caller): MemberManager =>
  caller.member ? { kind: 'member', role: caller.member.role, user_id: caller.member.userId } : { kind: 'key' }

export function peopleSettingsOf(settings: ServiceSettings): PeopleSettings {
  if (!settings.people) throw new ApiError('service_unavailable', 'sign-in is not configured on this service (no service key)')
  return settings.people
}

/**
 * An organization's last active owner cannot be demoted or removed (409 last_owner): an organization with
 * members keeps one who can manage them. The owner changes of one organization take turns under a
 * cluster-wide advisory lock; inside it the target's role is read from their stream (the authority), and
 * whether other active owners remain from org_members, each change waiting until the read models show it
 * before the next one counts, so two owners demoting each other at the same moment cannot both succeed.
 * (Owners are added elsewhere too, by an accepted invite or an SSO sign-up; a count that has not caught up
 * with those can only refuse, never wrongly allow.) An organization with no owner member at all (keys only)
 * is not affected.
 */
async function keepingAnOwner<T>(ctx: RpcContext<unknown>, userId: number, staysOwner: boolean, work: () => Promise<T>): Promise<T> {
  const target = await loadUser(ctx.write, userId)
  // A caller who may not manage members, a member they may not see, or nobody: the command answers 403 or 404
  // as it always does (a refusal must not tell who the owners are).
  if (!canManageMembers(managerOf(ctx.caller)) || !target.exists || target.removed || (ctx.orgId !== null && target.orgId !== ctx.orgId))
    return work()
  const orgId = target.orgId!
  return ctx.locks.withLock(`org_owners:${orgId}`, async () => {
    const current = await loadUser(ctx.write, userId)
    if (!staysOwner && current.exists && !current.removed && current.role === 'owner') {
      const others = await ctx.read
        .selectFrom('org_members')
        .select(['user_id'])
        .where('org_id', '=', orgId)
        .where('role', '=', 'owner')
        .where('status', '=', 'active')
        .where('user_id', '!=', userId)
        .limit(1)
        .execute()
      if (others.length === 0) throw new ApiError('last_owner', `member ${userId} is the only active owner of organization ${orgId}`)
    }
    const result = await work()
    await ctx.settle()
    return result
  })
}

const Time = z.string()
const MemberView = z.object({
  user_id: UserId,
  email: z.string(),
  role: RoleSchema,
  /** invited: has not set a password and enrolled TOTP yet; active: can sign in. */
  status: z.enum(['invited', 'active']),
  invited_at: Time,
  joined_at: Time.nullable(),
  last_sign_in_at: Time.nullable(),
  /** Set while the account is locked after repeated failed sign-ins. */
  locked_until: Time.nullable(),
})

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export const peopleRpcs = [
  rpc({
    name: 'invite_org_member',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Invite a person to the organization with a role (owner, seo_editor, web_builder, viewer). Returns a one-time invite link (absolute, on BASE_URL, else the listen address; valid 7 days) to hand to the person: this service sends no email. Following it, they set a password and enrol TOTP. An address is invited once per organization (409 email_taken: your own member or invite); what other organizations have is neither shown nor blocked. Accepting makes the address the sign-in of the new account, so an address that already has an account cannot accept the invite of another organization (409 on the invite page). Owner-level: a key with the write scope.',
    example: { params: { email: 'sam@northwind.example', role: 'seo_editor' } },
    params: z.strictObject({
      email: EmailSchema.describe("The person's email address, their sign-in once they accept"),
      role: RoleSchema.describe('The role: owner (everything, members included), seo_editor, web_builder or viewer (reads only)'),
    }),
    result: z.object({
      user_id: UserId,
      email: z.string(),
      role: RoleSchema,
      status: z.literal('invited'),
      invite_url: z.string(),
      invite_token: z.string(),
      expires_at: Time,
    }),
    async handler(ctx) {
      const people = peopleSettingsOf(ctx.settings)
      const invited = await inviteMember({ ...ctx.write, serviceKey: people.serviceKey }, ctx.command, {
        orgId: requireOrgId(ctx.orgId),
        email: ctx.params.email,
        role: ctx.params.role,
        manager: managerOf(ctx.caller),
      })
      const token = invited.inviteToken!
      return {
        user_id: invited.userId,
        email: invited.email,
        role: invited.role,
        status: 'invited' as const,
        // Absolute on the configured public address (never Host), so the person handed it can open it.
        invite_url: `${ctx.baseUrl}/invite/${token}`,
        invite_token: token,
        expires_at: invited.inviteExpiresAt!,
      }
    },
  }),
  rpc({
    name: 'list_org_members',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's members with role and status (invited or active), oldest first. Removed members are not listed. Never returns credentials.",
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(MemberView),
    async handler(ctx) {
      const rows = await ctx.read
        .selectFrom('org_members')
        .select(['user_id', 'email', 'role', 'status', 'invited_at', 'joined_at', 'last_sign_in_at', 'locked_until'])
        .where('org_id', '=', requireOrgId(ctx.orgId))
        .orderBy('user_id')
        .execute()
      return rows.map((r) => ({
        user_id: r.user_id,
        email: r.email,
        role: RoleSchema.parse(r.role),
        status: r.status as 'invited' | 'active',
        invited_at: r.invited_at.toISOString(),
        joined_at: iso(r.joined_at),
        last_sign_in_at: iso(r.last_sign_in_at),
        locked_until: iso(r.locked_until),
      }))
    },
  }),
  rpc({
    name: 'update_org_member_role',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change a member's role. Owner-level. The organization's last active owner cannot be demoted (409 last_owner: make another member an owner first). A member of another organization answers like a missing one (404).",
    example: { params: { user_id: 3, role: 'owner' } },
    params: z.strictObject({
      user_id: UserId,
      role: RoleSchema.describe('The new role: owner (everything, members included), seo_editor, web_builder or viewer (reads only)'),
    }),
    result: z.object({ user_id: UserId, email: z.string(), role: RoleSchema }),
    async handler(ctx) {
      const changed = await keepingAnOwner(ctx, ctx.params.user_id, ctx.params.role === 'owner', () =>
        changeMemberRole(ctx.write, ctx.command, {
          userId: ctx.params.user_id,
          callerOrgId: ctx.orgId,
          role: ctx.params.role,
          manager: managerOf(ctx.caller),
        }),
      )
      return { user_id: ctx.params.user_id, email: changed.email, role: changed.role }
    },
  }),
  rpc({
    name: 'remove_org_member',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Remove a member: their sessions end at once, open invite and reset links stop working, and the email can be invited again (as a new user). Owner-level. The organization's last active owner cannot be removed (409 last_owner). A member of another organization answers like a missing one (404).",
    example: { params: { user_id: 3 } },
    params: z.strictObject({ user_id: UserId }),
    result: z.object({ user_id: UserId, removed: z.literal(true) }),
    async handler(ctx) {
      await keepingAnOwner(ctx, ctx.params.user_id, false, () =>
        removeMember(ctx.write, ctx.command, { userId: ctx.params.user_id, callerOrgId: ctx.orgId, manager: managerOf(ctx.caller) }),
      )
      return { user_id: ctx.params.user_id, removed: true as const }
    },
  }),
  rpc({
    name: 'get_valid_password_reset',
    domain,
    access: 'read',
    orgScoped: false,
    platformOnly: true,
    summary:
      'The password reset a token hash (sha256 hex of the token in the link) stands for, while it is unused, unexpired and its member still exists; null otherwise. Platform keys only (a mailer or account UI).',
    example: { params: { token_hash: '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8' }, result: null },
    params: z.strictObject({
      token_hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'expected the sha256 hex of the token')
        .describe('The sha256 of the token in the reset link, as 64 lower-case hex digits'),
    }),
    result: z.object({ user_id: UserId, org_id: Id, email: z.string(), requested_at: Time, expires_at: Time }).nullable(),
    async handler(ctx) {
      const row = await ctx.read
        .selectFrom('password_resets as r')
        .innerJoin('org_members as m', 'm.user_id', 'r.user_id')
        .select(['r.user_id', 'r.org_id', 'm.email', 'r.requested_at', 'r.expires_at'])
        .where('r.token_hash', '=', ctx.params.token_hash)
        .where('r.used_at', 'is', null)
        .where('r.invalidated_at', 'is', null)
        .where('r.expires_at', '>', ctx.write.clock())
        .where('m.status', '=', 'active')
        .executeTakeFirst()
      if (!row) return null
      return {
        user_id: row.user_id,
        org_id: row.org_id,
        email: row.email,
        requested_at: row.requested_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
      }
    },
  }),
  rpc({
    name: 'has_recent_password_reset',
    domain,
    access: 'read',
    orgScoped: false,
    platformOnly: true,
    summary:
      'Whether a password reset was requested for the user in the last `minutes` (default 60). Platform keys only (a mailer throttling resets).',
    example: { params: { user_id: 3, minutes: 15 }, result: false },
    params: z.strictObject({
      user_id: UserId,
      minutes: z.number().int().min(1).max(10_080).default(60).describe('How many minutes back, 1 to 10,080 (default 60)'),
    }),
    result: z.boolean(),
    async handler(ctx) {
      const since = new Date(ctx.write.clock().getTime() - ctx.params.minutes * 60_000)
      const row = await ctx.read
        .selectFrom('password_resets')
        .select('token_hash')
        .where('user_id', '=', ctx.params.user_id)
        .where('requested_at', '>', since)
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },
  }),
]
