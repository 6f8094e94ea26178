import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { WriteDeps } from '../../commands/command-handler.js'
import { RecordingEventStore } from '../../commands/event-store/recording.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope, resolveOrg } from '../caller.js'
import { requireSandboxAllows } from '../platform/sandbox.js'
import { ApiError, isErrorCode, type ErrorCode } from '../errors.js'
import { requireWritesEnabled } from '../platform/writes-switch.js'
import { pageOf, type RpcRegistry, type ServiceSettings } from '../registry.js'

export interface RpcRouteDeps {
  readonly registry: RpcRegistry
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  /** How long a write waits for its events to reach the read models before answering anyway. */
  readonly readYourWritesTimeoutMs: number
  readonly db: Kysely<any>
  readonly settings: ServiceSettings
}

/** Renders zod issues as "field: message; field: message", naming each field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ')
}

/**
 * The error code for invalid parameters: validation_failed, unless an input refined a rule of its own and
 * named a registered code for it (an unsupported engine → aeo_engine_unsupported), so a caller can tell
 * "this value is not supported" from "this request is malformed" without reading the message.
 */
export function issueCode(error: z.ZodError): ErrorCode {
  for (const issue of error.issues) {
    const code = issue.code === 'custom' ? issue.params?.code : undefined
    if (typeof code === 'string' && isErrorCode(code)) return code
  }
  return 'validation_failed'
}

/**
 * POST /api/v1/rpc/<method>: authenticate, look the method up (deny by default), check scope and org,
 * validate, run, and, for writes, wait until the projections show what was written.
 */
export async function rpcRoutes(app: FastifyInstance, deps: RpcRouteDeps): Promise<void> {
  // Idempotency-Key: answers of write methods are recorded and replayed; reads validate the key and run.
  const isWrite = (request: { params: unknown }) => deps.registry.get((request.params as { method: string }).method)?.definition.access === 'write'
  app.post<{ Params: { method: string } }>('/api/v1/rpc/:method', { config: { idempotency: isWrite } }, async (request, reply) => {
    const caller = await callerOf(request, deps.read)
    const registered = deps.registry.get(request.params.method)
    if (!registered) throw new ApiError('method_not_allowed', `method ${request.params.method} is not available`)
    const definition = registered.definition
    requireSandboxAllows(caller, definition.access)
    requireScope(caller, definition.access)
    if (definition.platformOnly && caller.orgId !== null) throw new ApiError('platform_only', `${definition.name} needs a platform key`)
    if (definition.access === 'write') await requireWritesEnabled(request, reply)

    const body = request.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('validation_failed', '(body): expected a JSON object of parameters')
    const parsed = registered.input.safeParse(body)
    if (!parsed.success) throw new ApiError(issueCode(parsed.error), describeIssues(parsed.error))
    const params = parsed.data as Record<string, unknown>
    const requestedOrg = typeof params.org_id === 'number' ? params.org_id : undefined
    const orgId = definition.orgScoped ? resolveOrg(caller, requestedOrg) : caller.orgId

    const store = new RecordingEventStore(deps.write.store)
    let readYourWrites: 'reached' | 'timeout' | 'skipped' | undefined
    const settle = async () => {
      const appended = store.lastAppended
      if (appended === null) return
      readYourWrites = (await deps.watermark.waitFor(appended, deps.readYourWritesTimeoutMs)) ? 'reached' : 'timeout'
    }
    const result = await definition.handler({
      params,
      caller,
      orgId,
      read: deps.read,
      write: { ...deps.write, store },
      command: { actor: caller.actor, requestId: request.id, correlationId: request.id, causationId: null },
      store,
      db: deps.db,
      settings: deps.settings,
      settle,
      page: pageOf(definition, params),
    })
    if (definition.readYourWrites !== false) await settle()
    else if (store.lastAppended !== null && readYourWrites === undefined) readYourWrites = 'skipped'
    if (readYourWrites) reply.header('X-Read-Your-Writes', readYourWrites)
    return { result: result === undefined ? null : result }
  })
}
