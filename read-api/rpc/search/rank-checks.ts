import { z } from 'zod'
import { setRankCadence } from '../../../commands/search/rank-checks/cadence.js'
import { queueRankCheck } from '../../../commands/search/rank-checks/checks.js'
import { DEFAULT_RANK_DEVICES } from '../../../domain/search/rank-checks/cadence.js'
import { RankCheckErrorCode, RankFrequency, RankProviderName } from '../../../domain/search/rank-checks/events.js'
import { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { MAX_FAILED_TASKS_LISTED } from '../../../projections/search/rank-checks/projector.js'
import { rankCadenceOf, rankCheckView, rankChecksOfClient, visibleRankCheck } from '../../../projections/search/rank-checks/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId, KeywordId } from '../ids.js'

const domain = 'search'

const RankCheckId = Id.describe('The rank check (an integer id, as run_rank_check or get_rank_checks answered)')

const Devices = z.array(RankDevice).min(1).max(2)

const CadenceSchema = z
  .object({
    client_id: ClientId,
    frequency: RankFrequency.describe('daily: a check every UTC day; weekly: one when 7 days have passed since the last; off: none'),
    devices: z.array(RankDevice).describe('The devices each check covers'),
    updated_at: z.string().nullable().describe('When the cadence was last set (ISO 8601); null: never set, the defaults are shown'),
  })
  .describe("A client's rank-check cadence")

const FailedTaskSchema = z
  .object({
    keyword_id: KeywordId,
    location_id: Id.nullable().describe('The client location searched from; null for a national search'),
    device: RankDevice,
    error_code: RankCheckErrorCode.describe('Why it failed, e.g. rank_provider_unavailable (still failing after every retry)'),
    message: z.string().describe("The provider's words, or ours"),
    tries: z.number().int().describe('Provider calls spent on it'),
  })
  .describe('A keyword × location × device the check could not observe')

const RankCheckSchema = z
  .object({
    id: RankCheckId,
    client_id: ClientId,
    date: z.string().describe('The UTC day (YYYY-MM-DD) the ranks are recorded for; kept when the check is retried or resumed'),
    trigger: z.enum(['manual', 'cadence']).describe('manual: run_rank_check; cadence: queued by the schedule'),
    status: z
      .enum(['queued', 'running', 'completed', 'failed'])
      .describe('queued → running → completed, or failed (error says why). completed may still have failed tasks (tasks_failed)'),
    provider: RankProviderName.nullable().describe('dataforseo or serpapi: who was asked; null before a worker took the check'),
    devices: z.array(RankDevice).describe('The devices checked'),
    keyword_count: z.number().int().nullable().describe('Active keywords when the check started; null while queued'),
    location_count: z.number().int().nullable().describe('Client locations searched from (0: national); null while queued'),
    tasks_total: z.number().int().nullable().describe('keywords × max(1, locations) × devices; null while queued'),
    tasks_done: z.number().int().describe('Tasks whose rank is recorded for the date'),
    tasks_failed: z.number().int().describe('Tasks that failed in the latest attempt (their ranks are missing)'),
    provider_calls: z.number().int().describe('Provider calls made, retries included'),
    retries: z.number().int().describe('Calls that repeated a failed call (5xx, timeout, 429, network error)'),
    attempt: z
      .number()
      .int()
      .describe('Times a worker took the check: more than 1 after a worker stopped mid-check and another resumed it'),
    error: z
      .object({
        code: RankCheckErrorCode.describe(
          'rank_provider_unauthorized (401), rank_provider_payment_required (402 / out of funds), rank_provider_unavailable (down after retries), rank_provider_not_configured, rank_check_interrupted, client_deleted',
        ),
        message: z.string().describe("The provider's message, or ours"),
      })
      .nullable()
      .describe('Why the check failed; null unless status is failed'),
    failed_tasks: z.array(FailedTaskSchema).describe(`The failed tasks of the latest attempt, at most ${MAX_FAILED_TASKS_LISTED}`),
    queued_at: z.string().describe('When it was queued (ISO 8601)'),
    started_at: z.string().nullable().describe('When a worker first took it'),
    finished_at: z.string().nullable().describe('When it completed or failed'),
    lease_expires_at: z.string().nullable().describe('While running: when the worker must report again, or another may resume the check'),
  })
  .describe('A rank check: every active keyword × client location × device, for one day')

const exampleCheck = {
  id: 88,
  client_id: 34,
  date: '2026-11-27',
  trigger: 'manual' as const,
  status: 'completed' as const,
  provider: 'dataforseo' as const,
  devices: ['desktop' as const, 'mobile' as const],
  keyword_count: 12,
  location_count: 2,
  tasks_total: 48,
  tasks_done: 48,
  tasks_failed: 0,
  provider_calls: 50,
  retries: 2,
  attempt: 1,
  error: null,
  failed_tasks: [],
  queued_at: '2026-11-27T09:00:00.000Z',
  started_at: '2026-11-27T09:00:01.000Z',
  finished_at: '2026-11-27T09:00:41.000Z',
  lease_expires_at: null,
}

export const rankChecksRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'set_rank_cadence',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Schedule rank checks for a client: frequency daily (one check each UTC day), weekly (one when 7 days have passed since the last ' +
      'check) or off (no more scheduled checks; an open check still finishes), and the devices each check covers (default both). ' +
      'Each check covers every active keyword × the client’s locations (none: national) × the devices, one provider call each. Returns the cadence.',
    example: {
      params: { client_id: 34, frequency: 'daily', devices: ['desktop', 'mobile'] },
      result: { client_id: 34, frequency: 'daily', devices: ['desktop', 'mobile'], updated_at: '2026-11-27T09:00:00.000Z' },
    },
    params: z.strictObject({
      client_id: ClientId,
      frequency: RankFrequency.describe('daily, weekly, or off to stop scheduled checks'),
      devices: Devices.optional().describe('desktop and/or mobile (default both)'),
    }),
    result: CadenceSchema,
    async handler(ctx) {
      const p = ctx.params
      await setRankCadence(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        frequency: p.frequency,
        devices: p.devices ?? DEFAULT_RANK_DEVICES,
      })
      await ctx.settle()
      return rankCadenceOf(ctx.read, p.client_id)
    },
  }),
  rpc({
    name: 'get_rank_cadence',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's rank-check cadence; frequency off with both devices (updated_at null) when it was never set.",
    example: {
      params: { client_id: 34 },
      result: { client_id: 34, frequency: 'weekly', devices: ['desktop'], updated_at: '2026-11-20T09:00:00.000Z' },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: CadenceSchema,
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return rankCadenceOf(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'run_rank_check',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Queue a rank check of the client now, for today (UTC): every active keyword × the client's locations × the cadence's devices " +
      '(both without a cadence). One check is open per client at a time: while one is queued or running, that one is returned and ' +
      'nothing is queued (created false). A provider failure shows on the check (get_rank_check: status failed, error.code). ' +
      'A check of a day already checked fetches only the ranks still missing for it.',
    example: {
      params: { client_id: 34 },
      result: {
        ...exampleCheck,
        created: true,
        status: 'queued',
        provider: null,
        keyword_count: null,
        location_count: null,
        tasks_total: null,
        tasks_done: 0,
        provider_calls: 0,
        retries: 0,
        attempt: 0,
        started_at: null,
        finished_at: null,
      },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: RankCheckSchema.extend({ created: z.boolean().describe('true: queued by this call; false: the check already open') }),
    async handler(ctx) {
      const queued = await queueRankCheck(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: ctx.params.client_id,
        trigger: 'manual',
      })
      await ctx.settle()
      // A manual queue always has an open check to show (queued now or already open).
      const check = await visibleRankCheck(ctx.read, ctx.orgId, queued!.checkId)
      return { ...rankCheckView(check), created: queued!.created }
    },
  }),
  rpc({
    name: 'get_rank_checks',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's rank checks, newest first: status, progress counts, the provider and, for a failed check, the coded error.",
    example: { params: { client_id: 34 }, result: [exampleCheck] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(RankCheckSchema),
    paginated: { maxLimit: 100, defaultLimit: 20 },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return rankChecksOfClient(ctx.read, client.id, ctx.page!)
    },
  }),
  rpc({
    name: 'get_rank_check',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'One rank check: status, tasks total/done/failed, provider calls and retries, the failed tasks, and error {code, message} when it ' +
      'failed (rank_provider_unauthorized, rank_provider_payment_required, rank_provider_unavailable, rank_provider_not_configured, …).',
    example: { params: { check_id: 88 }, result: exampleCheck },
    params: z.strictObject({ check_id: RankCheckId }),
    result: RankCheckSchema,
    handler: async (ctx) => rankCheckView(await visibleRankCheck(ctx.read, ctx.orgId, ctx.params.check_id)),
  }),
]
