import { z } from 'zod'
import { clearCooldown, setCooldown } from '../../../commands/monitoring/cooldowns.js'
import {
  COOLDOWN_NOTE_MAX_LENGTH,
  CooldownActivity,
  CooldownReason,
  MAX_COOLDOWN_DAYS,
  MAX_COOLDOWN_MINUTES,
} from '../../../domain/monitoring/cooldowns/reasons.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { activeCooldowns, clientCooldown, isInCooldown } from '../../../projections/monitoring/cooldowns/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'monitoring'

const Reason = CooldownReason.describe(
  'publish (after a site edit is applied: holds back scans), scan_failures (after 3 failed scans in a row: holds back scans), ' +
    'operator (set by a person: holds back scans and publishing)',
)

const CooldownSchema = z
  .object({
    client_id: ClientId,
    reason: Reason,
    until: z.string().describe('When it ends, or ended (ISO 8601)'),
    note: z.string().nullable().describe("Why, in the setter's words; null when none was given"),
    active: z.boolean().describe('Whether it holds now: not cleared and until still ahead'),
    holds_back: z
      .array(CooldownActivity)
      .describe('What it holds back while active: scan (start_site_scan) and/or publish (apply_site_edit)'),
    set_at: z.string().describe('When it was last set (ISO 8601); setting it again moves until'),
    cleared_at: z.string().nullable().describe('When clear_client_cooldown ended it; null: it runs, or ran, to until'),
  })
  .describe("A client's cooldown for one reason")

const exampleCooldown = {
  client_id: 34,
  reason: 'operator' as const,
  until: '2026-11-28T09:00:00.000Z',
  note: 'Site migration in progress: no scans or edits until the new theme is live',
  active: true,
  holds_back: ['scan' as const, 'publish' as const],
  set_at: '2026-11-27T09:00:00.000Z',
  cleared_at: null,
}

export const cooldownsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_active_cooldowns',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every cooldown active now for the organization's clients (a platform key without org_id: every organization's), soonest end " +
      'first. A cooldown is active until its until time or until clear_client_cooldown ends it; expired and cleared ones are left out.',
    example: { params: {}, result: [exampleCooldown] },
    params: z.strictObject({}),
    result: z.array(CooldownSchema).describe('The active cooldowns, soonest end first'),
    async handler(ctx) {
      return activeCooldowns(ctx.read, ctx.orgId, ctx.write.clock())
    },
  }),
  rpc({
    name: 'get_client_cooldown',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's active cooldown for the reason (any reason when omitted: the one ending last). With none active, the one set " +
      'last (expired or cleared, active false), so a caller sees what just ended; null when the client never had one.',
    example: { params: { client_id: 34, reason: 'operator' }, result: exampleCooldown },
    params: z.strictObject({ client_id: ClientId, reason: Reason.optional().describe('Only this reason (default: any)') }),
    result: CooldownSchema.nullable().describe('The cooldown; null when the client never had one (for that reason)'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return clientCooldown(ctx.read, client.id, ctx.params.reason ?? null, ctx.write.clock())
    },
  }),
  rpc({
    name: 'is_client_in_cooldown',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'Whether the client has a cooldown active now, for the reason (any reason when omitted).',
    example: { params: { client_id: 34 }, result: true },
    params: z.strictObject({ client_id: ClientId, reason: Reason.optional().describe('Only this reason (default: any)') }),
    result: z.boolean().describe('true: a cooldown (for that reason) is active now'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return isInCooldown(ctx.read, client.id, ctx.params.reason ?? null, ctx.write.clock())
    },
  }),
  rpc({
    name: 'set_client_cooldown',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Put the client in cooldown for a reason until a time (until, or minutes from now: one of the two). Setting a reason again ' +
      `moves its end (earlier or later). until must be in the future and at most ${MAX_COOLDOWN_DAYS} days ahead. A person ` +
      'uses reason operator (scans and publishing wait); publish and scan_failures are what the service sets by itself, and a ' +
      'caller may set them too (an edit published another way; a site known to be down). Returns the cooldown.',
    example: {
      params: {
        client_id: 34,
        reason: 'operator',
        minutes: 1440,
        note: 'Site migration in progress: no scans or edits until the new theme is live',
      },
      result: exampleCooldown,
    },
    params: z.strictObject({
      client_id: ClientId,
      reason: Reason,
      until: z.iso.datetime({ offset: true }).optional().describe('When it ends (ISO 8601 with offset); give this or minutes'),
      minutes: z
        .number()
        .int()
        .min(1)
        .max(MAX_COOLDOWN_MINUTES)
        .optional()
        .describe(`How long from now, in minutes (1 to ${MAX_COOLDOWN_MINUTES}); give this or until`),
      note: z.string().max(COOLDOWN_NOTE_MAX_LENGTH).optional().describe('Why, shown with the cooldown'),
    }),
    result: CooldownSchema,
    async handler(ctx) {
      const p = ctx.params
      const { cooldown } = await setCooldown(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        reason: p.reason,
        until: p.until,
        minutes: p.minutes,
        note: p.note ?? null,
        requireLength: true,
      })
      await ctx.settle()
      const view = await clientCooldown(ctx.read, p.client_id, p.reason, ctx.write.clock())
      if (!view) throw new Error(`client ${p.client_id}: cooldown ${cooldown.reason} set but not in the read model`)
      return view
    },
  }),
  rpc({
    name: 'clear_client_cooldown',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "End the client's active cooldown for the reason now (every active one when omitted). Nothing active: nothing changes " +
      '(cleared is empty). Returns the reasons ended and whether the client is still in cooldown.',
    example: { params: { client_id: 34, reason: 'operator' }, result: { client_id: 34, cleared: ['operator'], in_cooldown: false } },
    params: z.strictObject({ client_id: ClientId, reason: Reason.optional().describe('Only this reason (default: every active one)') }),
    result: z
      .object({
        client_id: ClientId,
        cleared: z.array(CooldownReason).describe('The reasons whose active cooldown this call ended'),
        in_cooldown: z.boolean().describe('Whether another cooldown is still active'),
      })
      .describe('What the call ended'),
    async handler(ctx) {
      const p = ctx.params
      const { cleared } = await clearCooldown(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        reason: p.reason ?? null,
      })
      await ctx.settle()
      return { client_id: p.client_id, cleared, in_cooldown: await isInCooldown(ctx.read, p.client_id, null, ctx.write.clock()) }
    },
  }),
]
