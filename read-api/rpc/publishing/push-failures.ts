import { z } from 'zod'
import { resolvePushFailure, resolvePushFailures } from '../../../commands/publishing/push-failures.js'
import { PushFailureCategory } from '../../../domain/publishing/push-failures/events.js'
import {
  AUTO_RESOLVE_NOTE,
  KNOWN_PUSH_OPERATIONS,
  PUSH_NOTE_MAX_LENGTH,
  PushOperation,
} from '../../../domain/publishing/push-failures/operations.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  countUnresolvedPushFailures,
  pushFailuresForClient,
  unresolvedPushFailures,
  visiblePushFailure,
} from '../../../projections/publishing/push-failures/queries.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'publishing'

const FailureId = Id.describe('The push failure (an integer id, as get_unresolved_push_failures or get_push_failures answered)')

const Category = PushFailureCategory.describe(
  'Why the site did not take it: auth, conflict, not_found, rejected, server_error, timeout, network, blocked, invalid_response',
)
const Operation = PushOperation.describe(
  `What the push was doing: ${KNOWN_PUSH_OPERATIONS.join(', ')}, or another lower-case name (a-z, 0-9, _)`,
)

const PushFailureSchema = z
  .object({
    id: FailureId,
    client_id: ClientId,
    client_name: z.string().describe("The client's name"),
    operation: Operation,
    category: Category,
    error: z.string().describe('What went wrong, as the pusher recorded it (at most 2000 characters)'),
    edit_id: Id.nullable().describe('The site edit that was pushed, when it was one'),
    target: z.string().nullable().describe('What was pushed to: the URL, or wp:<type>/<id>'),
    http_status: z.number().int().nullable().describe("The site's HTTP status, when it answered"),
    attempts: z.number().int().nullable().describe('How many tries the pusher made before it recorded the failure'),
    occurred_at: z.string().describe('When it failed (ISO 8601)'),
    resolved_at: z.string().nullable().describe('When it was resolved (ISO 8601); null while unresolved'),
    resolved_note: z.string().nullable().describe('Why it was resolved; null while unresolved'),
    resolved_auto: z
      .boolean()
      .nullable()
      .describe('true: resolved because the next attempt of the operation succeeded; false: by a person; null: unresolved'),
  })
  .describe('A push the client’s site did not take')

const exampleFailure = {
  id: 17,
  client_id: 34,
  client_name: 'Acme Plumbing',
  operation: 'apply_site_edit',
  category: 'auth' as const,
  error: 'WordPress answered 401 rest_cannot_edit: Sorry, you are not allowed to edit this post.',
  edit_id: 61,
  target: 'wp:page/210',
  http_status: 401,
  attempts: 1,
  occurred_at: '2026-11-27T09:14:03.000Z',
  resolved_at: null,
  resolved_note: null,
  resolved_auto: null,
}

const RESOLUTION =
  'A failure stays unresolved until the next attempt of the same operation for the client succeeds (auto_resolve_push_failures, which the publisher calls) or a person resolves it (resolve_push_failure).'

export const pushFailuresRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_unresolved_push_failures',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `Every unresolved push failure of the organization's clients (a platform key without org_id: of every organization), newest first. ${RESOLUTION}`,
    example: { params: {}, result: [exampleFailure] },
    params: z.strictObject({}),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(PushFailureSchema).describe('The unresolved failures, newest first'),
    handler: async (ctx) => unresolvedPushFailures(ctx.read, ctx.orgId, ctx.page ?? { limit: 100, offset: 0 }),
  }),
  rpc({
    name: 'get_unresolved_push_failures_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `The organization's unresolved push failures, newest first (a platform key names org_id). ${RESOLUTION}`,
    example: { params: {}, result: [exampleFailure] },
    params: z.strictObject({}),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(PushFailureSchema).describe('The unresolved failures, newest first'),
    handler: async (ctx) => unresolvedPushFailures(ctx.read, requireOrgId(ctx.orgId), ctx.page ?? { limit: 100, offset: 0 }),
  }),
  rpc({
    name: 'count_unresolved_push_failures',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Unresolved push failures of the organization's clients (a platform key without org_id: of every organization), of one client and of some categories when given.",
    example: { params: { client_id: 34, categories: ['auth', 'blocked'] }, result: 2 },
    params: z.strictObject({
      client_id: ClientId.optional().describe('Only this client (default: every client)'),
      categories: z.array(Category).min(1).max(20).optional().describe('Only these categories (default: every category)'),
    }),
    result: z.number().int().describe('How many are unresolved'),
    async handler(ctx) {
      const p = ctx.params
      if (p.client_id !== undefined) await visibleClient(ctx.read, ctx.orgId, p.client_id)
      return countUnresolvedPushFailures(ctx.read, { orgId: ctx.orgId, clientId: p.client_id, categories: p.categories })
    },
  }),
  rpc({
    name: 'count_unresolved_push_failures_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "Unresolved push failures of the organization's clients (a platform key names org_id).",
    example: { params: {}, result: 3 },
    params: z.strictObject({}),
    result: z.number().int().describe('How many are unresolved'),
    handler: async (ctx) => countUnresolvedPushFailures(ctx.read, { orgId: requireOrgId(ctx.orgId) }),
  }),
  rpc({
    name: 'get_push_failures',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's push failures, newest first: unresolved ones, and resolved ones too with include_resolved.",
    example: { params: { client_id: 34, include_resolved: true }, result: [exampleFailure] },
    params: z.strictObject({
      client_id: ClientId,
      include_resolved: z.boolean().default(false).describe('Also resolved failures (default false: only unresolved)'),
    }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(PushFailureSchema).describe("The client's failures, newest first"),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return pushFailuresForClient(ctx.read, client.id, ctx.params.include_resolved, ctx.page ?? { limit: 100, offset: 0 })
    },
  }),
  rpc({
    name: 'auto_resolve_push_failures',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Resolve every unresolved push failure of the client and operation, because the next attempt succeeded (the publisher calls it after each success). Returns how many were resolved (0: none was unresolved, nothing is recorded).',
    example: { params: { client_id: 34, operation: 'apply_site_edit' }, result: 2 },
    params: z.strictObject({
      client_id: ClientId,
      operation: Operation,
      note: z
        .string()
        .trim()
        .min(1)
        .max(PUSH_NOTE_MAX_LENGTH)
        .default(AUTO_RESOLVE_NOTE)
        .describe(`Why they are resolved (default "${AUTO_RESOLVE_NOTE}")`),
    }),
    result: z.number().int().describe('How many failures were resolved'),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const outcome = await resolvePushFailures(ctx.write, ctx.command, {
        clientId: client.id,
        operation: p.operation,
        note: p.note,
        auto: true,
        callerOrgId: ctx.orgId,
      })
      return outcome.resolved
    },
  }),
  rpc({
    name: 'resolve_push_failure',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Resolve one push failure by hand (a person fixed its cause, or it no longer matters). Already resolved: nothing changes. Returns the failure.',
    example: {
      params: { failure_id: 17, note: 'Application password renewed' },
      result: {
        ...exampleFailure,
        resolved_at: '2026-11-27T10:02:41.000Z',
        resolved_note: 'Application password renewed',
        resolved_auto: false,
      },
    },
    params: z.strictObject({
      failure_id: FailureId,
      note: z
        .string()
        .trim()
        .min(1)
        .max(PUSH_NOTE_MAX_LENGTH)
        .default('resolved by hand')
        .describe('Why it is resolved (default "resolved by hand")'),
    }),
    result: PushFailureSchema,
    async handler(ctx) {
      const failure = await visiblePushFailure(ctx.read, ctx.orgId, ctx.params.failure_id)
      await resolvePushFailure(ctx.write, ctx.command, {
        clientId: failure.client_id,
        failureId: failure.id,
        note: ctx.params.note,
        callerOrgId: ctx.orgId,
      })
      await ctx.settle()
      return visiblePushFailure(ctx.read, ctx.orgId, failure.id)
    },
  }),
]
