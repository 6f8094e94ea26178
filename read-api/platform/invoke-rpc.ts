import type { FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { WriteDeps } from '../../commands/command-handler.js'
import { RecordingEventStore } from '../../commands/event-store/recording.js'
import type { Kysely } from 'kysely'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import type { PublicDocsSettings } from '../docs/context.js'
import { runQueueReads } from '../../projections/aeo/runs/run-queue-reads.js'
import type { RunQueueReads } from '../../commands/aeo/run-queue-reads.js'
import type { ReadDb } from '../../projections/tables.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import { requireScope, resolveOrg, type Caller } from '../caller.js'
import { ApiError, isErrorCode, type ErrorCode } from '../errors.js'
import { pageOf, type AnyRpc, type RegisteredRpc, type RpcRegistry } from '../registry.js'
import type { ServiceSettings } from '../settings.js'
import { rpcPorts, type RpcPorts } from './rpc-ports.js'
import { requireSandboxAllows } from './sandbox.js'
import { requireWritesEnabled } from './writes-switch.js'

/**
 * One RPC call, whoever carries it: `POST /api/v1/rpc/<method>` and the MCP server's tools both run through
 * `invokeRpc`, so validation, org-id injection, scope checks, the sandbox's read-only rule, the writes switch
 * and read-your-writes are decided in one place and cannot drift apart.
 */
export interface InvokeRpcDeps {
  readonly registry: RpcRegistry
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  /** How long a write waits for its events to reach the read models before answering anyway. */
  readonly readYourWritesTimeoutMs: number
  /** The public schema's work tables, which the handlers' ports and AI Visibility's commands are built over. */
  readonly db: Kysely<WorkTables>
  readonly settings: ServiceSettings
  /** BASE_URL (the handlers' `baseUrl`); without it, the listen address. */
  readonly publicDocs?: PublicDocsSettings | undefined
}

export interface RpcCall {
  /** The HTTP request that carries the call: its id becomes the events' request and correlation id. */
  readonly request: FastifyRequest
  /** Where Retry-After goes when writes are switched off. */
  readonly reply: FastifyReply
  readonly caller: Caller
  readonly method: string
  /** The keyword arguments as sent (undefined: none). */
  readonly params: unknown
}

export interface RpcOutcome {
  /** The handler's answer (undefined becomes null, as `{result: null}` says on the wire). */
  readonly result: unknown
  /** Set for a call that wrote: whether the read models showed the write before answering. */
  readonly readYourWrites: 'reached' | 'timeout' | 'skipped' | undefined
}

/** Renders zod issues as "field: message; field: message", naming each field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`).join('; ')
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

/** Deny by default: a method that is not in the registry answers 403 method_not_allowed. */
export function lookUpRpc(registry: RpcRegistry, method: string): RegisteredRpc {
  const registered = registry.get(method)
  if (!registered) throw new ApiError('method_not_allowed', `method ${method} is not available`)
  return registered
}

/**
 * What the credential itself must allow (no request state needed): the sandbox's read-only rule first (its
 * answer says why), then the scope. The MCP server asks this before dispatching, so that these refusals are
 * HTTP 403s there too (read-api/mcp/credential-check.ts).
 */
export function requireCredentialAllows(caller: Caller, definition: AnyRpc): void {
  requireSandboxAllows(caller, definition.access)
  requireScope(caller, definition.access)
}

/** The ports of every call of one app, built once (they hold no request state). */
const portsByDeps = new WeakMap<InvokeRpcDeps, RpcPorts>()

const queueReadsByDeps = new WeakMap<InvokeRpcDeps, RunQueueReads>()

function queueReadsOf(deps: InvokeRpcDeps): RunQueueReads {
  let reads = queueReadsByDeps.get(deps)
  if (reads === undefined) {
    reads = runQueueReads(deps.read)
    queueReadsByDeps.set(deps, reads)
  }
  return reads
}

function portsOf(deps: InvokeRpcDeps): RpcPorts {
  let ports = portsByDeps.get(deps)
  if (ports === undefined) {
    ports = rpcPorts({ db: deps.db, read: deps.read, store: deps.write.store, now: deps.write.clock })
    portsByDeps.set(deps, ports)
  }
  return ports
}

/**
 * Checks, validates, runs and (for writes) waits until the projections show what was written. Throws
 * ApiError (or a DomainError) for every refusal; the carrier renders it.
 */
export async function invokeRpc(deps: InvokeRpcDeps, call: RpcCall): Promise<RpcOutcome> {
  const { caller, request, reply } = call
  const registered = lookUpRpc(deps.registry, call.method)
  const definition = registered.definition
  requireCredentialAllows(caller, definition)
  if (definition.platformOnly && caller.orgId !== null) throw new ApiError('platform_only', `${definition.name} needs a platform key`)
  if (definition.access === 'write') await requireWritesEnabled(request, reply)

  const body = call.params ?? {}
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('validation_failed', '(body): expected a JSON object of parameters')
  const parsed = registered.input.safeParse(body)
  if (!parsed.success) throw new ApiError(issueCode(parsed.error), describeIssues(parsed.error))
  const params = parsed.data as Record<string, unknown>
  const requestedOrg = typeof params.org_id === 'number' ? params.org_id : undefined
  const orgId = definition.orgScoped ? resolveOrg(caller, requestedOrg) : caller.orgId

  const store = new RecordingEventStore(deps.write.store)
  let readYourWrites: RpcOutcome['readYourWrites']
  const settle = async () => {
    const appended = store.lastAppended
    if (appended === null) return
    readYourWrites = (await deps.watermark.waitFor(appended, deps.readYourWritesTimeoutMs)) ? 'reached' : 'timeout'
  }
  const write = { store, ids: deps.write.ids, clock: deps.write.clock }
  const ports = portsOf(deps)
  // Written out, not spread, and no accessors: this literal is built on every call of every method, and a
  // spread or a getter in it costs V8 a slow object clone each time.
  let result: unknown
  try {
    result = await definition.handler({
      history: ports.history,
      locks: ports.locks,
      files: ports.files,
      captureRecords: ports.captureRecords,
      usage: ports.usage,
      params,
      caller,
      orgId,
      read: deps.read,
      write,
      command: { actor: caller.actor, requestId: request.id, correlationId: request.id, causationId: null },
      aeoCommands: {
        runs: { store, ids: deps.write.ids, clock: deps.write.clock, db: deps.db, reads: queueReadsOf(deps), settings: deps.settings.aeo },
        captures: { store, ids: deps.write.ids, clock: deps.write.clock, db: deps.db },
      },
      settings: deps.settings,
      settle,
      waitForReadModels: (position, timeoutMs) => deps.watermark.waitFor(position, timeoutMs),
      page: pageOf(definition, params),
      baseUrl: baseUrlOf(request, deps.publicDocs?.baseUrl),
    })
  } catch (error) {
    // A refusal may have recorded what was tried (a failed publish, its push failure): the reads right after the
    // error answer show it, as they would after a success.
    if (definition.readYourWrites !== false) await settle().catch(() => {})
    throw error
  }
  if (definition.readYourWrites !== false) await settle()
  else if (store.lastAppended !== null && readYourWrites === undefined) readYourWrites = 'skipped'
  return { result: result === undefined ? null : result, readYourWrites }
}
