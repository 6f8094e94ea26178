import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import type { WriteDeps } from '../../commands/command-handler.js'
import type { Position } from '../../commands/event-store/port.js'
import { cancelJob } from '../../commands/jobs/job.js'
import { requestJob } from '../../commands/jobs/request.js'
import { isJobKind, JOB_KINDS, type JobKindSpec, SPECIFIED_JOB_KINDS } from '../../domain/jobs/kinds.js'
import { JobAlreadyRunningError, SandboxExportLimitedError } from '../../domain/jobs/slot.js'
import { Id } from '../../domain/shared/values.js'
import { findClient } from '../../projections/clients/queries.js'
import { findJob, jobStatusUrl, jobView } from '../../projections/jobs/queries.js'
import { activeClientIdsInGroup, findClientGroup } from '../../projections/planning/groups/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import { callerOf } from '../auth/request-caller.js'
import { requireOwnerLevel, requireScope, type Caller } from '../caller.js'
import { ApiError } from '../errors.js'
import { route, type RouteGroup, type RoutePart } from '../platform/route.js'
import { requireWritesEnabled } from '../platform/writes-switch.js'
import { JOB_RECORD_CANCELLED_EXAMPLE, JOB_RECORD_EXAMPLE, JobRecord } from './job-record.js'
import { describeIssues } from './rpc.js'

export interface JobRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  /** The kinds this service has a handler for (processors/jobs/kinds, or a test's own map). */
  readonly jobKinds: ReadonlySet<string>
}

const KIND_DESCRIPTION =
  'The job kind. GET /api/v1/capabilities (job_kinds) lists the kinds this deployment runs; another specified kind answers 400 job_kind_unavailable, an unknown one 400 validation_failed.'

/** The body of POST /api/v1/jobs (endpoints.md "Jobs"); unknown fields are refused, naming them. */
const JobBody = z.strictObject({
  // The enum documents the specified kinds; the handler names an unknown or unavailable one in its own words.
  kind: z
    .string()
    .min(1)
    .max(100)
    .meta({ enum: [...SPECIFIED_JOB_KINDS] })
    .describe(KIND_DESCRIPTION),
  client_id: Id.nullable().optional().describe('Target client; required by every kind except export_org'),
  group_id: Id.nullable().optional().describe('Target group (bulk_strategist only)'),
  org_id: Id.nullable().optional().describe('export_org with a platform key: the organization to export; organization keys omit it'),
  meter: z.boolean().optional().describe('Count the job towards metered usage'),
  payload: z.record(z.string(), z.unknown()).optional().describe("Kind-specific parameters (the kind's payload schema)"),
})

/** Job creation needs write access (a read-only key is refused, spec Authentication 4) and the jobs scope. */
function requireJobScopes(caller: Caller): void {
  requireScope(caller, 'write')
  requireScope(caller, 'jobs')
}

/** Reading a job: the read scope, or the jobs scope (a key that may start jobs may poll them). */
function requireReadOrJobs(caller: Caller): void {
  if (!caller.scopes.includes('jobs')) requireScope(caller, 'read')
}

const kindList = () => Object.keys(JOB_KINDS).join(', ')

/**
 * Which kind, organization and client the request is about, checked in the order a caller fixes them:
 * the kind, the fields it needs, its payload, and only then whether the records exist (404).
 */
async function resolveRequest(deps: JobRouteDeps, caller: Caller, body: z.infer<typeof JobBody>) {
  const kind = body.kind
  if (!isJobKind(kind)) {
    if ((SPECIFIED_JOB_KINDS as readonly string[]).includes(kind))
      throw new ApiError(
        'job_kind_unavailable',
        `kind: ${kind} is not run by this service; available: ${[...deps.jobKinds].sort().join(', ') || 'none'}`,
      )
    throw new ApiError(
      'validation_failed',
      `kind: unknown job kind ${JSON.stringify(kind.slice(0, 100))}; the kinds are ${kindList()}`,
      `Use one of ${kindList()}`,
    )
  }
  if (!deps.jobKinds.has(kind))
    throw new ApiError(
      'job_kind_unavailable',
      `kind: ${kind} has no runner on this service; available: ${[...deps.jobKinds].sort().join(', ') || 'none'}`,
    )
  const spec: JobKindSpec = JOB_KINDS[kind]
  const clientId = body.client_id ?? null
  const groupId = body.group_id ?? null
  if (spec.groupRequired) {
    // A kind about a group (bulk_strategist) takes the group, never one client.
    if (groupId === null)
      throw new ApiError(
        'validation_failed',
        `group_id: required for ${kind}`,
        `Pass the target group's id as group_id (get_all_client_groups shows them)`,
      )
    if (clientId !== null) throw new ApiError('validation_failed', `client_id: ${kind} is about a group and takes group_id, not client_id`)
  } else {
    if (spec.clientRequired && clientId === null)
      throw new ApiError(
        'validation_failed',
        `client_id: required for ${kind}`,
        `Pass the target client's id as client_id (list_clients shows them)`,
      )
    if (!spec.clientRequired && clientId !== null)
      throw new ApiError('validation_failed', `client_id: ${kind} is about the whole organization and takes no client_id`)
    if (groupId !== null) throw new ApiError('validation_failed', `group_id: only bulk_strategist takes a group; ${kind} does not`)
  }
  const payload = spec.payload.safeParse(body.payload ?? {})
  if (!payload.success) {
    const detail = describeIssues(payload.error)
      .split('; ')
      .map((issue) => (issue.startsWith('(body)') ? `payload${issue.slice('(body)'.length)}` : `payload.${issue}`))
      .join('; ')
    throw new ApiError('validation_failed', detail, `Fix the payload fields named in detail (${kind}: ${spec.summary})`)
  }
  const requestedOrg = body.org_id ?? null
  if (caller.orgId !== null && requestedOrg !== null && requestedOrg !== caller.orgId)
    throw new ApiError('not_found', `organization ${requestedOrg} not found`)
  let orgId: number
  if (groupId !== null) {
    orgId = await groupOrg(deps.read, caller.orgId ?? requestedOrg, groupId)
  } else if (clientId !== null) {
    const client = await findClient(deps.read, caller.orgId ?? requestedOrg, clientId)
    if (!client) throw new ApiError('not_found', `client ${clientId} not found`)
    if (client.status === 'deleted') throw new ApiError('client_deleted', `client ${clientId} is deleted`)
    orgId = client.org_id
  } else if (caller.orgId !== null) {
    orgId = caller.orgId
  } else {
    if (requestedOrg === null) throw new ApiError('org_id_required', `org_id: a platform key names the organization for ${kind}`)
    const org = await deps.read.selectFrom('organizations').select('id').where('id', '=', requestedOrg).executeTakeFirst()
    if (!org) throw new ApiError('not_found', `organization ${requestedOrg} not found`)
    orgId = requestedOrg
  }
  return { kind, orgId, clientId, groupId, payload: payload.data as Record<string, unknown> }
}

/**
 * The organization of a group a job may target: the caller's (404 like a missing one otherwise), live (409
 * client_group_deleted) and with at least one active client to work on (409 client_group_empty).
 */
async function groupOrg(read: ReadDb, orgId: number | null, groupId: number): Promise<number> {
  const group = await findClientGroup(read, orgId, groupId)
  if (!group) throw new ApiError('not_found', `client group ${groupId} not found`)
  if (group.deleted_at !== null) throw new ApiError('client_group_deleted', `client group ${groupId} is deleted`)
  if ((await activeClientIdsInGroup(read, groupId)).length === 0)
    throw new ApiError('client_group_empty', `client group ${groupId} has no active client`)
  return group.org_id
}

async function settle(deps: JobRouteDeps, reply: FastifyReply, position: Position | null): Promise<void> {
  if (position === null) return
  const reached = await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
  reply.header('X-Read-Your-Writes', reached ? 'reached' : 'timeout')
}

const JobIdParams = z.object({
  job_id: z.coerce.number().pipe(Id).meta({ type: 'integer', minimum: 1 }).describe('The job id (job_id of POST /api/v1/jobs)'),
})

/** A job id that is not a positive integer is named plainly; a body is described issue by issue. */
const invalidJobInput = (part: RoutePart, error: z.ZodError) =>
  new ApiError('validation_failed', part === 'params' ? 'job_id: expected a positive integer job id' : describeIssues(error))

const JobAccepted = z.object({
  job_id: z.number().int().describe('The new job'),
  status_url: z.string().describe('Poll it: GET this path (relative to the base URL)'),
})

/** The job API (endpoints.md "Jobs"). Jobs run in the processors role (processors/jobs). */
export const createJobRoute = route<JobRouteDeps, z.ZodNever, z.ZodNever, typeof JobBody>({
  method: 'POST',
  path: '/api/v1/jobs',
  operationId: 'create_job',
  summary: 'Start a background job',
  description:
    "Needs the write and jobs scopes (the sandbox key: export_org only, once per 10 minutes). One active job per client (per group for bulk_strategist, which takes group_id instead of client_id; per organization for export_org): another request answers 409 job_already_running naming the active job. A group must be live (409 client_group_deleted) with an active client (409 client_group_empty). Unknown kind, missing client_id or group_id, or a payload failing the kind's schema: 400 naming the field. Accepts Idempotency-Key.",
  tag: 'jobs',
  auth: 'bearer',
  scopes: ['write', 'jobs'],
  idempotent: true,
  body: { type: 'application/json', schema: JobBody, required: true },
  responses: {
    202: {
      description: 'Accepted: the job is queued.',
      schema: JobAccepted,
      headers: { 'X-Read-Your-Writes': 'reached, or timeout when the read models had not caught up in time' },
    },
  },
  example: {
    body: { kind: 'export_org' },
    response: { status: 202, body: { job_id: 77, status_url: '/api/v1/jobs/77' } },
  },
  invalid: invalidJobInput,
  handler: async ({ request, reply, deps, input }) => {
    const caller = await callerOf(request, deps.read)
    const raw = request.body ?? {}
    if (typeof raw !== 'object' || Array.isArray(raw))
      throw new ApiError('validation_failed', '(body): expected a JSON object {kind, client_id?, org_id?, payload?}')
    // The public sandbox key is read-only: it may start export_org only (the slot enforces one per 10 minutes).
    if (caller.sandbox) {
      if ((raw as { kind?: unknown }).kind !== 'export_org') {
        throw new ApiError(
          'sandbox_read_only',
          'the sandbox key may start export_org jobs only',
          'Use your own key for other jobs; the sandbox may export its data once per 10 minutes',
        )
      }
    } else {
      requireJobScopes(caller)
    }
    await requireWritesEnabled(request, reply)
    const body = input.body()
    if (body.kind === 'export_org') requireOwnerLevel(caller, 'export the organization')
    const target = await resolveRequest(deps, caller, body)
    const context = { actor: caller.actor, requestId: request.id, correlationId: request.id, causationId: null }
    let accepted: { jobId: number; position: Position }
    try {
      accepted = await requestJob(deps.write, context, {
        orgId: target.orgId,
        kind: target.kind,
        clientId: target.clientId,
        groupId: target.groupId,
        payload: target.payload,
        meter: body.meter ?? false,
        sandbox: caller.sandbox,
      })
    } catch (error) {
      if (error instanceof JobAlreadyRunningError) {
        throw new ApiError('job_already_running', `job ${error.activeJobId} is still active; status_url ${jobStatusUrl(error.activeJobId)}`)
      }
      if (error instanceof SandboxExportLimitedError) {
        reply.header('Retry-After', String(error.retryAfterSeconds))
        throw new ApiError(
          'rate_limited',
          `the sandbox key may start one export_org job every 10 minutes; retry in ${error.retryAfterSeconds} s`,
        )
      }
      throw error
    }
    await settle(deps, reply, accepted.position)
    return reply.code(202).send({ job_id: accepted.jobId, status_url: jobStatusUrl(accepted.jobId) })
  },
})

export const getJobRoute = route<JobRouteDeps, typeof JobIdParams>({
  method: 'GET',
  path: '/api/v1/jobs/:job_id',
  operationId: 'get_job',
  summary: 'A job record',
  description:
    'The read scope, or the jobs scope (a key that may start jobs may poll them). A job of another organization answers 404 like a missing one.',
  tag: 'jobs',
  auth: 'bearer',
  scopes: ['read'],
  params: JobIdParams,
  responses: { 200: { description: 'The job.', schema: JobRecord } },
  example: { params: { job_id: 77 }, response: { status: 200, body: JOB_RECORD_EXAMPLE } },
  invalid: invalidJobInput,
  handler: async ({ request, deps, input }) => {
    const caller = await callerOf(request, deps.read)
    requireReadOrJobs(caller)
    const { job_id: jobId } = input.params()
    const row = await findJob(deps.read, caller.orgId, jobId)
    if (!row) throw new ApiError('not_found', `job ${jobId} not found`)
    return jobView(row)
  },
})

export const cancelJobRoute = route<JobRouteDeps, typeof JobIdParams>({
  method: 'POST',
  path: '/api/v1/jobs/:job_id/cancel',
  operationId: 'cancel_job',
  summary: 'Cancel a queued or running job',
  description:
    'A queued job is cancelled at once (200); a running job is asked to stop (202, cancel_requested true) and ends cancelled at its next check. A terminal job answers 409 job_already_terminal. Needs the write and jobs scopes.',
  tag: 'jobs',
  auth: 'bearer',
  scopes: ['write', 'jobs'],
  params: JobIdParams,
  responses: {
    200: { description: 'The job, cancelled.', schema: JobRecord },
    202: { description: 'The job, still running, with cancel_requested true.', schema: JobRecord },
  },
  example: {
    params: { job_id: 78 },
    response: {
      status: 200,
      body: { ...JOB_RECORD_CANCELLED_EXAMPLE },
    },
  },
  invalid: invalidJobInput,
  handler: async ({ request, reply, deps, input }) => {
    const caller = await callerOf(request, deps.read)
    if (caller.sandbox) throw new ApiError('sandbox_read_only', 'the sandbox key cannot cancel jobs')
    requireJobScopes(caller)
    await requireWritesEnabled(request, reply)
    const { job_id: jobId } = input.params()
    const context = { actor: caller.actor, requestId: request.id, correlationId: request.id, causationId: null }
    const outcome = await cancelJob(deps.write, context, jobId, caller.orgId)
    await settle(deps, reply, outcome.position)
    const row = await findJob(deps.read, caller.orgId, jobId)
    if (!row) throw new ApiError('not_found', `job ${jobId} not found`)
    // A running job stops at its handler's next check: 202 says the cancel is under way.
    return reply.code(outcome.state.status === 'cancelled' ? 200 : 202).send(jobView(row))
  },
})

/** POST /api/v1/jobs (202 {job_id, status_url}), GET /api/v1/jobs/<id> and POST /api/v1/jobs/<id>/cancel. */
export const jobRoutes: RouteGroup<JobRouteDeps> = { routes: [createJobRoute, getJobRoute, cancelJobRoute] }
