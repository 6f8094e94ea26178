import { z } from 'zod'
import { setCadence } from '../../../commands/aeo/cadence.js'
import { claimRuns } from '../../../commands/aeo/claims.js'
import { cancelQueuedRuns, completeRun, enqueueDueRuns, failRun, startRun, type QueueDeps } from '../../../commands/aeo/runs.js'
import { MAX_RETRY_AFTER_SECONDS } from '../../../domain/aeo/runs/backoff.js'
import { uniqueEngines } from '../../../domain/aeo/runs/cadence.js'
import { engineWarnings } from '../../../domain/aeo/runs/engine-warnings.js'
import { EngineValue } from '../../../domain/aeo/engines.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  agentsView,
  cadenceOf,
  claimedEngines,
  doneToday,
  enrolledClientIds,
  queueOverview,
  runsOfClient,
  runStats,
} from '../../../projections/aeo/runs/queries.js'
import { ApiError } from '../../errors.js'
import { describeIssues, issueCode } from '../../platform/invoke-rpc.js'
import { rpc, type RpcContext } from '../../registry.js'
import { CaptureId, ClientId, QueryId, RunId } from '../ids.js'
import { AgentId, Engine } from './params.js'

const domain = 'ai-visibility'

/** How long enqueue and cancel wait for the read models to reach the log's head before giving up (503). */
const QUEUE_WAIT_MS = 15_000

function queueDeps(ctx: RpcContext<unknown>): QueueDeps {
  return { ...ctx.aeoCommands.runs, waitForReadModels: (position) => ctx.waitForReadModels(position, QUEUE_WAIT_MS) }
}

const Capabilities = z.strictObject({
  engines: z.array(Engine).min(1).max(20).transform(uniqueEngines).describe('The engines the agent answers with, 1 to 20'),
  geo: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default('any')
    .describe(
      'The state it searches from, e.g. TX, or any (default any): runs of a client with a geo_state go to agents of that state or any',
    ),
  max_per_day: z
    .number()
    .int()
    .positive()
    .max(1_000_000)
    .nullable()
    .default(null)
    .describe('At most this many runs claimed in 24 hours (default null: no limit)'),
})

/**
 * capabilities_json as a parameter: the JSON text of the capabilities (the catalogue's form) or, since a JSON
 * string inside JSON is an easy thing to get wrong, the object itself. Both go through parseCapabilities, so
 * they are refused alike (same codes, same field names); the parameter schema only tells the two forms apart,
 * and documents the object's fields.
 */
const { $schema: _dialect, ...capabilitiesJsonSchema } = z.toJSONSchema(Capabilities, { io: 'input', unrepresentable: 'any' })
const CapabilitiesParam = z
  .union(
    [
      z.string().max(10_000).describe('The capabilities as JSON text'),
      z.record(z.string(), z.unknown()).meta({ ...capabilitiesJsonSchema, description: 'The capabilities as an object' }),
    ],
    { error: 'expected an object {engines, geo, max_per_day} or its JSON text' },
  )
  .describe('What the agent can answer: {engines, geo, max_per_day}, as an object or its JSON text')

/** The capabilities from either form; anything malformed is a 400 naming the field. */
function parseCapabilities(param: z.infer<typeof CapabilitiesParam>): z.infer<typeof Capabilities> {
  let value: unknown = param
  if (typeof param === 'string') {
    try {
      value = JSON.parse(param)
    } catch {
      throw new ApiError(
        'validation_failed',
        'capabilities_json: not valid JSON; expected {"engines": [...], "geo": "TX" | "any", "max_per_day": n}',
      )
    }
  }
  const parsed = Capabilities.safeParse(value)
  if (!parsed.success) {
    throw new ApiError(
      issueCode(parsed.error),
      describeIssues(parsed.error)
        .split('; ')
        // "(body): …" is about the object itself: "capabilities_json: …", not "capabilities_json.: …".
        .map((issue) => (issue.startsWith('(body)') ? `capabilities_json${issue.slice('(body)'.length)}` : `capabilities_json.${issue}`))
        .join('; '),
    )
  }
  return parsed.data
}

const CadenceView = z.object({
  enabled: z.boolean(),
  samples_per_month: z.number().int(),
  engines: z.array(z.string()),
  geo_state: z.string().nullable(),
})

/** An engine nothing will answer (domain/aeo/runs/engine-warnings.ts): which, why, and what to do. */
const EngineWarningView = z.object({
  engine: z.string(),
  reason: z.enum(['no API key configured', 'no agent seen claiming it']),
  hint: z.string(),
})

const ClaimedRunView = z.object({
  id: Id,
  query_id: QueryId,
  client_id: ClientId,
  engine: EngineValue,
  geo_state: z.string().nullable(),
  month: Month,
  attempt: z.number().int(),
  prompt: z.string(),
  client_name: z.string(),
  lease_expires_at: z.string(),
})

const RunStatus = z.enum(['queued', 'claimed', 'running', 'done', 'failed', 'cancelled'])

const RunView = z.object({
  id: Id,
  client_id: ClientId,
  query_id: QueryId,
  engine: z.string(),
  month: z.string(),
  geo_state: z.string().nullable(),
  priority: z.number().int(),
  sample: z.number().int(),
  status: RunStatus,
  agent_id: z.string().nullable(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  capture_id: z.number().int().nullable(),
  lease_expires_at: z.string().nullable(),
  retry_at: z.string().nullable(),
  queued_at: z.string(),
  claimed_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  updated_at: z.string(),
})

const Stats = z.object({
  queued: z.number().int(),
  claimed: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  total: z.number().int(),
})

const AgentView = z.object({
  agent_id: z.string(),
  org_id: z.number().int().nullable(),
  online: z.boolean(),
  last_seen_at: z.string(),
  registered_at: z.string(),
  capabilities: z.object({ engines: z.array(z.string()), geo: z.string(), max_per_day: z.number().int().nullable() }),
  current_run: z
    .object({ id: Id, client_id: ClientId, engine: z.string(), status: z.string(), claimed_at: z.string().nullable() })
    .nullable(),
  runs: z.object({
    claimed: z.number().int(),
    running: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    done_24h: z.number().int(),
  }),
})

const QueueOverview = z.object({
  stats: Stats,
  oldest_queued_at: z.string().nullable(),
  waiting_retry: z.number().int(),
  engines: z.array(
    z.object({
      engine: z.string(),
      queued: z.number().int(),
      claimed: z.number().int(),
      running: z.number().int(),
      agents_online: z.number().int(),
    }),
  ),
  clients: z.array(
    z.object({
      client_id: ClientId,
      name: z.string(),
      queued: z.number().int(),
      claimed: z.number().int(),
      running: z.number().int(),
      done: z.number().int(),
      failed: z.number().int(),
    }),
  ),
  agents_online: z.number().int(),
  warnings: z.array(EngineWarningView),
})

/** The agent a call acts as: its id under the caller's organization (a platform key's agents are platform agents). */
const agentOf = (ctx: RpcContext<{ agent_id: string }>) => ({ agent_id: ctx.params.agent_id, agent_org_id: ctx.caller.orgId })

export const aeoRunsRpcs = [
  rpc({
    name: 'set_aeo_cadence',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Enrol a client in AI Visibility: samples_per_month per active question and engine, the engines (claude, openai, gemini, chatgpt-web; chatgpt means chatgpt-web), an optional geo_state, enabled (default true). Returns the cadence and warnings: each enrolled engine nothing will answer, with why (a server engine: no API key configured; chatgpt-web: no agent seen claiming it) and a hint; its runs are queued anyway and wait. Disabling it cancels the queued runs.',
    example: {
      params: { client_id: 34, samples_per_month: 4, engines: ['claude', 'openai', 'chatgpt'], geo_state: 'TX' },
      result: { enabled: true, samples_per_month: 4, engines: ['claude', 'openai', 'chatgpt-web'], geo_state: 'TX', warnings: [] },
    },
    params: z.strictObject({
      client_id: ClientId,
      samples_per_month: z.number().int().min(1).max(100).describe('Captures per active question and engine each month, 1 to 100'),
      engines: z.array(Engine).min(1).max(20).describe('The engines to ask, 1 to 20'),
      geo_state: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .nullable()
        .optional()
        .describe('The state answers are asked from, e.g. TX: only agents of that state (or any) claim the runs; null or absent: anywhere'),
      enabled: z.boolean().default(true).describe('false pauses the cadence and cancels its queued runs (default true)'),
    }),
    result: CadenceView.extend({ warnings: z.array(EngineWarningView) }),
    async handler(ctx) {
      const p = ctx.params
      const { cadence, orgId } = await setCadence(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        samplesPerMonth: p.samples_per_month,
        engines: p.engines,
        geoState: p.geo_state ?? null,
        enabled: p.enabled,
      })
      // The agents are read after the read models show this write, and so every check-in logged before it
      // (a claim answers without waiting for them). A disabled cadence queues nothing: nothing to warn about.
      await ctx.settle()
      const warnings = cadence.enabled ? engineWarnings(cadence.engines, await claimedEngines(ctx.read, orgId)) : []
      return { ...cadence, warnings }
    },
  }),
  rpc({
    name: 'get_aeo_cadence',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's cadence {enabled, samples_per_month, engines, geo_state}, or {} when it was never enrolled.",
    example: {
      params: { client_id: 34 },
      result: { enabled: true, samples_per_month: 4, engines: ['claude', 'openai', 'chatgpt-web'], geo_state: 'TX' },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z.union([CadenceView, z.object({}).strict()]),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return cadenceOf(ctx.read, ctx.params.client_id)
    },
  }),
  rpc({
    name: 'enqueue_due_aeo_runs',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Queue the runs due now (each active question × cadence engine, spread over the month to reach samples_per_month, never more than due). With client_id: the number queued. Without: every enrolled client of the organization (a platform key without org_id: of every organization), {queued, clients: [{client_id, queued}]}.',
    example: { params: { client_id: 34 }, result: 18 },
    params: z.strictObject({ client_id: ClientId.optional() }),
    result: z.union([
      z.number().int(),
      z.object({ queued: z.number().int(), clients: z.array(z.object({ client_id: ClientId, queued: z.number().int() })) }),
    ]),
    async handler(ctx) {
      const deps = queueDeps(ctx)
      if (ctx.params.client_id !== undefined) {
        await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
        const [one] = await enqueueDueRuns(deps, ctx.command, { clientIds: [ctx.params.client_id], reason: 'enqueue' })
        return one?.queued ?? 0
      }
      const clients = await enqueueDueRuns(deps, ctx.command, {
        clientIds: await enrolledClientIds(ctx.read, ctx.orgId),
        reason: 'enqueue',
      })
      return { queued: clients.reduce((sum, c) => sum + c.queued, 0), clients }
    },
  }),
  rpc({
    name: 'cancel_aeo_runs',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Cancel the client's queued runs (optionally of one month and/or one question). Claimed, running and finished runs are left alone. Returns the number cancelled.",
    example: { params: { client_id: 34, month: '2026-03' }, result: 6 },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.nullable().optional().describe('Only runs of this month, YYYY-MM (default every month)'),
      query_id: QueryId.nullable().optional().describe('Only runs of this question (default every question)'),
    }),
    result: z.number().int(),
    async handler(ctx) {
      const { client_id, month, query_id } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      if (query_id != null) {
        const question = await ctx.read
          .selectFrom('aeo_queries')
          .select('id')
          .where('id', '=', query_id)
          .where('client_id', '=', client_id)
          .executeTakeFirst()
        if (!question) throw new NotFoundError('question', query_id)
      }
      return cancelQueuedRuns(queueDeps(ctx), ctx.command, {
        clientId: client_id,
        month: month ?? undefined,
        queryId: query_id ?? undefined,
        reason: 'requested',
      })
    },
  }),
  rpc({
    name: 'claim_aeo_runs',
    domain,
    access: 'write',
    orgScoped: false,
    // The agents' hot path: the answer carries everything an agent needs, the run's next steps (start,
    // complete, fail) decide from the log, and leases keep a claimed run from being claimed again while the
    // read models catch up, so the claim does not wait for them (X-Read-Your-Writes: skipped). Waiting
    // cost more than half of each claim's time under 20 concurrent agents.
    readYourWrites: false,
    summary:
      'Claim up to limit (default 1) queued runs for agent_id, atomically and disjointly across agents. capabilities_json is {engines, geo ("TX" or "any"), max_per_day}, as an object or as its JSON text. Each run comes with the prompt and the client name; finish it with complete_aeo_run or fail_aeo_run before lease_expires_at. Registers the agent on first claim. A run that failed is not claimable before its retry_at. Answers without waiting for the read models (X-Read-Your-Writes: skipped): get_aeo_runs may show a claimed run as queued for a moment.',
    example: {
      params: { agent_id: 'laptop-7:chrome', capabilities_json: { engines: ['chatgpt-web'], geo: 'TX', max_per_day: 200 }, limit: 1 },
      result: [
        {
          id: 981,
          query_id: 527,
          client_id: 34,
          engine: 'chatgpt-web',
          geo_state: 'TX',
          month: '2026-03',
          attempt: 1,
          prompt: 'Who is the best emergency plumber in Austin, TX?',
          client_name: 'Acme Plumbing',
          lease_expires_at: '2026-03-09T10:35:00.000Z',
        },
      ],
    },
    params: z.strictObject({
      agent_id: AgentId,
      capabilities_json: CapabilitiesParam,
      limit: z.number().int().min(1).max(100).default(1).describe('At most this many runs, 1 to 100 (default 1)'),
    }),
    result: z.array(ClaimedRunView),
    async handler(ctx) {
      const capabilities = parseCapabilities(ctx.params.capabilities_json)
      return claimRuns(ctx.aeoCommands.runs, ctx.command, {
        agentId: ctx.params.agent_id,
        agentOrgId: ctx.caller.orgId,
        capabilities,
        limit: ctx.params.limit,
      })
    },
  }),
  rpc({
    name: 'start_aeo_run',
    domain,
    access: 'write',
    orgScoped: false,
    summary: 'Mark a claimed run as running (only the claiming agent). Optional: complete_aeo_run accepts a claimed run too.',
    example: { params: { run_id: 981, agent_id: 'laptop-7:chrome' } },
    params: z.strictObject({ run_id: RunId, agent_id: AgentId }),
    result: z.null(),
    async handler(ctx) {
      await startRun(ctx.aeoCommands.runs, ctx.command, { runId: ctx.params.run_id, agent: agentOf(ctx) })
      return null
    },
  }),
  rpc({
    name: 'complete_aeo_run',
    domain,
    access: 'write',
    orgScoped: false,
    summary:
      "Complete a claimed or running run with the capture ingested for it (ingest_aeo_capture's id). Only the claiming agent; the capture must be about the run's client.",
    example: { params: { run_id: 981, agent_id: 'laptop-7:chrome', capture_id: 4410 } },
    params: z.strictObject({ run_id: RunId, agent_id: AgentId, capture_id: CaptureId }),
    result: z.null(),
    async handler(ctx) {
      await completeRun(ctx.aeoCommands.runs, ctx.command, {
        runId: ctx.params.run_id,
        agent: agentOf(ctx),
        captureId: ctx.params.capture_id,
      })
      return null
    },
  }),
  rpc({
    name: 'fail_aeo_run',
    domain,
    access: 'write',
    orgScoped: false,
    summary:
      "Fail a claimed or running run with the reason (only the claiming agent). While attempts are left it is queued again, claimable from retry_at: after the backoff for its attempt (AEO_RETRY_BACKOFF_SECONDS), or after retry_after_seconds when given (a provider's Retry-After, at most a day); else failed. Returns {status, attempts, retry, retry_at}.",
    example: {
      params: { run_id: 981, agent_id: 'laptop-7:chrome', error: 'rate limited by the engine', retry_after_seconds: 600 },
      result: { status: 'queued', attempts: 1, retry: true, retry_at: '2026-03-09T10:45:00.000Z' },
    },
    params: z.strictObject({
      run_id: RunId,
      agent_id: AgentId,
      error: z.string().trim().min(1).max(2000).describe('Why it failed, 1 to 2000 characters (shown in get_aeo_runs)'),
      retry_after_seconds: z
        .number()
        .int()
        .min(0)
        .max(MAX_RETRY_AFTER_SECONDS)
        .optional()
        .describe(
          `Seconds to wait before the retry, 0 to ${MAX_RETRY_AFTER_SECONDS} (e.g. a provider's Retry-After); default: the backoff schedule`,
        ),
    }),
    result: z.object({ status: RunStatus, attempts: z.number().int(), retry: z.boolean(), retry_at: z.string().nullable() }),
    async handler(ctx) {
      return failRun(ctx.aeoCommands.runs, ctx.command, {
        runId: ctx.params.run_id,
        agent: agentOf(ctx),
        error: ctx.params.error,
        retryAfterSeconds: ctx.params.retry_after_seconds,
      })
    },
  }),
  rpc({
    name: 'count_aeo_runs_done_today',
    domain,
    access: 'read',
    orgScoped: false,
    summary: 'The number of runs agent_id completed in the last 24 hours.',
    example: { params: { agent_id: 'laptop-7:chrome' }, result: 37 },
    params: z.strictObject({ agent_id: AgentId }),
    result: z.number().int(),
    handler: async (ctx) => doneToday(ctx.read, agentOf(ctx), ctx.write.clock()),
  }),
  rpc({
    name: 'get_aeo_agents',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The capture agents: the organization's own and the platform's (such as server-api), each with online (seen recently), capabilities, the run it is working on and run counts.",
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(AgentView),
    handler: async (ctx) => agentsView(ctx.read, ctx.orgId, ctx.write.clock(), ctx.settings.aeo.agentOnlineSeconds),
  }),
  rpc({
    name: 'get_aeo_runs',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's runs, newest first (optionally of one month). A queued run with retry_at failed before and is not claimable until then.",
    example: { params: { client_id: 34, month: '2026-03' } },
    params: z.strictObject({
      client_id: ClientId,
      month: Month.nullable().optional().describe('Only runs of this month, YYYY-MM (default every month)'),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 100 },
    result: z.array(RunView),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return runsOfClient(ctx.read, ctx.params.client_id, ctx.params.month ?? undefined, ctx.page?.limit ?? 100, ctx.page?.offset)
    },
  }),
  rpc({
    name: 'get_aeo_run_stats',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Run counts queued / claimed / running / done / failed / cancelled / total, for a client or the whole organization, optionally of one month.',
    example: { params: { client_id: 34, month: '2026-03' } },
    params: z.strictObject({
      client_id: ClientId.nullable().optional().describe("Only this client's runs (default: the whole organization)"),
      month: Month.nullable().optional().describe('Only runs of this month, YYYY-MM (default every month)'),
    }),
    result: Stats,
    async handler(ctx) {
      const clientId = ctx.params.client_id ?? undefined
      if (clientId !== undefined) await visibleClient(ctx.read, ctx.orgId, clientId)
      return runStats(ctx.read, { orgId: ctx.orgId, clientId, month: ctx.params.month ?? undefined })
    },
  }),
  rpc({
    name: 'get_aeo_queue_overview',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The run queue of the organization (a platform key without org_id: of all): counts by status, by engine with the agents online for it, by client, the oldest queued run, waiting_retry (queued runs that failed and wait for their retry time), and warnings: each engine enrolled or queued that no agent has claimed with, why and what to do.',
    example: { params: {} },
    params: z.strictObject({}),
    result: QueueOverview,
    handler: async (ctx) => queueOverview(ctx.read, ctx.orgId, ctx.write.clock(), ctx.settings.aeo.agentOnlineSeconds),
  }),
]
