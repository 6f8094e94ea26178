import { z } from 'zod'
import type { CommandContext, WriteDeps } from '../commands/command-handler.js'
import type { Position } from '../commands/event-store/port.js'
import type { ReadDb } from '../projections/tables.js'
import type { Caller } from './caller.js'
import type { AeoCommandDeps, RpcPorts } from './platform/rpc-ports.js'
import type { ServiceSettings } from './settings.js'
import { Id } from '../domain/shared/values.js'

/**
 * What a handler gets: validated params, who calls, the read models, the write side, and the narrow ports
 * (history, locks, files, capture records, usage) for anything else; never a raw database or event store.
 */
export interface RpcContext<TParams> extends RpcPorts {
  readonly params: TParams
  readonly caller: Caller
  /**
   * The organization in scope: an organization key's own id (injected), or the org_id a platform key
   * passed, or null when a platform key passed none. Read queries filter by it when it is set.
   */
  readonly orgId: number | null
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly command: CommandContext
  /** The deps of AI Visibility's run and capture commands, on this request's write side. */
  readonly aeoCommands: AeoCommandDeps
  readonly settings: ServiceSettings
  /**
   * Waits until the read models show this request's writes (bounded). A write handler that answers with a
   * read calls it first; the edge calls it anyway before answering any write.
   */
  readonly settle: () => Promise<void>
  /**
   * The service's projection watermark: true once the read models show `position`, false after `timeoutMs`.
   * For handlers that wait on a position other than this request's own last append (the AEO queue waits for
   * the log's head); it shares the process's watermark, which only polls while no local runner announces.
   */
  readonly waitForReadModels: (position: Position, timeoutMs: number) => Promise<boolean>
  /** A paginated method's validated `limit` and `offset`; null for a method that is not paginated. */
  readonly page: Page | null
  /**
   * The service's public address (BASE_URL, else the listen address; never the Host header), for results
   * that carry absolute URLs someone must register elsewhere (SAML and OIDC provider URLs).
   */
  readonly baseUrl: string
}

export type Access = 'read' | 'write'

export interface RpcDefinition<TParams extends z.ZodObject = z.ZodObject, TResult extends z.ZodType = z.ZodType> {
  readonly name: string
  /** The product domain the method is listed under (clients, org-admin, …). */
  readonly domain: string
  /** read needs the read scope; write needs write and waits for read-your-writes. */
  readonly access: Access
  /**
   * About an organization's records: the registry adds an optional `org_id` parameter, injected for
   * organization keys and passed by platform keys (handlers read `ctx.orgId`, never the parameter).
   */
  readonly orgScoped: boolean
  /** Only partner/platform keys (org_id null) may call it. */
  readonly platformOnly?: boolean
  /**
   * false: a write that answers without waiting for the read models (header X-Read-Your-Writes: skipped).
   * Only for hot paths whose answer carries everything the caller needs and whose correctness does not
   * rest on the read models (claim_aeo_runs: leases keep a claimed run from being claimed again).
   */
  readonly readYourWrites?: boolean
  readonly summary: string
  /** The method's own parameters, as a strict object (unknown keys are refused). */
  readonly params: TParams
  readonly result: TResult
  readonly handler: (context: RpcContext<z.infer<TParams>>) => Promise<z.infer<TResult>>
  /**
   * A realistic call, shown in the OpenAPI document, the docs and MCP: parameters a caller could send as they
   * are (checked against `params` by a test), and optionally an answer the method could give (checked against
   * `result`). Required, so that no method ships without one.
   */
  readonly example: RpcExample<TParams, TResult>
  /**
   * Retiring the method (spec Versioning 4): every call answers Deprecation, Sunset and Link headers, the
   * documents mark it, and an api.deprecation event is recorded once, 60 days before the sunset.
   */
  readonly deprecated?: Deprecation
  /**
   * A list method: the registry adds optional `limit` (1..maxLimit, default defaultLimit) and `offset`
   * parameters, like org_id, and hands them to the handler as `ctx.page`. Over maxLimit is a 400 naming it.
   */
  readonly paginated?: Pagination
}

export interface RpcExample<TParams extends z.ZodObject = z.ZodObject, TResult extends z.ZodType = z.ZodType> {
  /** The method's own parameters as sent (org_id, limit and offset are the registry's, left out). */
  readonly params: z.input<TParams>
  readonly result?: z.output<TResult>
}

export interface Deprecation {
  /** The day the method may be removed (YYYY-MM-DD, 00:00 UTC): the Sunset header. */
  readonly sunset: string
  /** The method to use instead. */
  readonly replacement?: string
  /** When it was deprecated (YYYY-MM-DD); the Deprecation header's date. Default: 60 days before sunset. */
  readonly since?: string
}

export interface Pagination {
  readonly maxLimit: number
  /** Default DEFAULT_PAGE_LIMIT, or maxLimit when that is smaller. */
  readonly defaultLimit?: number
}

export interface Page {
  readonly limit: number
  readonly offset: number
}

/** No method pages more than this many rows at once, whatever it declares. */
export const MAX_PAGE_LIMIT = 1000
export const DEFAULT_PAGE_LIMIT = 100
/** Offsets beyond this are refused: deep offset paging is a full scan; narrow the filter instead. */
export const MAX_PAGE_OFFSET = 1_000_000

/** Declares an RPC. Everything else (route, auth, validation, documents) is derived from the declaration. */
export function rpc<TParams extends z.ZodObject, TResult extends z.ZodType>(
  definition: RpcDefinition<TParams, TResult>,
): RpcDefinition<TParams, TResult> {
  return definition
}

export type AnyRpc = RpcDefinition<z.ZodObject, z.ZodType>

/** A declaration and the schema its request body is validated with. */
export interface RegisteredRpc {
  readonly definition: AnyRpc
  /** `params`, plus `limit`/`offset` when paginated and `org_id` (an id, or null for "none") when org-scoped. */
  readonly input: z.ZodType
}

const OrgIdParam = Id.nullable()
  .optional()
  .describe(
    "The organization the call is about: injected for an organization's key (another id answers 404); a platform key passes it, or null or nothing for none",
  )

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

export const defaultLimitOf = (pagination: Pagination): number =>
  pagination.defaultLimit ?? Math.min(DEFAULT_PAGE_LIMIT, pagination.maxLimit)

/** The limit/offset parameters a paginated method gets (one place, so every list pages the same way). */
export function pageParams(pagination: Pagination) {
  const defaultLimit = defaultLimitOf(pagination)
  return {
    limit: z
      .number()
      .int()
      .min(1)
      .max(pagination.maxLimit, { message: `at most ${pagination.maxLimit} rows per page` })
      .default(defaultLimit)
      .describe(`Rows per page: 1 to ${pagination.maxLimit}, default ${defaultLimit}`),
    offset: z
      .number()
      .int()
      .min(0)
      .max(MAX_PAGE_OFFSET, { message: `at most ${MAX_PAGE_OFFSET}` })
      .default(0)
      .describe("Rows to skip, in the method's order (default 0)"),
  }
}

/** The page a paginated method was asked for (validated input); null for other methods. */
export function pageOf(definition: AnyRpc, params: Record<string, unknown>): Page | null {
  if (!definition.paginated) return null
  return { limit: params.limit as number, offset: params.offset as number }
}

function checkDeclaration(definition: AnyRpc): void {
  const name = definition.name
  if (definition.paginated) {
    const { maxLimit, defaultLimit } = definition.paginated
    if (!Number.isInteger(maxLimit) || maxLimit < 1 || maxLimit > MAX_PAGE_LIMIT)
      throw new Error(`RPC ${name}: maxLimit must be 1..${MAX_PAGE_LIMIT}`)
    if (defaultLimit !== undefined && (!Number.isInteger(defaultLimit) || defaultLimit < 1 || defaultLimit > maxLimit)) {
      throw new Error(`RPC ${name}: defaultLimit must be 1..maxLimit`)
    }
    for (const key of ['limit', 'offset']) {
      if (key in definition.params.shape) throw new Error(`RPC ${name} declares ${key} itself; set paginated`)
    }
  }
  if (definition.deprecated) {
    const { sunset, since, replacement } = definition.deprecated
    if (!DATE.test(sunset) || (since !== undefined && !DATE.test(since))) throw new Error(`RPC ${name}: deprecation dates are YYYY-MM-DD`)
    if (replacement === name) throw new Error(`RPC ${name} cannot replace itself`)
  }
}

/** The registry: deny by default, so only what is listed here can be called. */
export class RpcRegistry {
  readonly #byName = new Map<string, RegisteredRpc>()

  constructor(definitions: readonly AnyRpc[]) {
    for (const definition of definitions) {
      if (this.#byName.has(definition.name)) throw new Error(`RPC ${definition.name} is declared twice`)
      if ('org_id' in definition.params.shape) throw new Error(`RPC ${definition.name} declares org_id itself; set orgScoped`)
      checkDeclaration(definition)
      let input: z.ZodObject = definition.params
      if (definition.paginated) input = input.extend(pageParams(definition.paginated))
      if (definition.orgScoped) input = input.extend({ org_id: OrgIdParam })
      this.#byName.set(definition.name, { definition, input })
    }
    for (const { definition } of this.#byName.values()) {
      const replacement = definition.deprecated?.replacement
      if (replacement !== undefined && !this.#byName.has(replacement))
        throw new Error(`RPC ${definition.name}: replacement ${replacement} is not registered`)
    }
  }

  get(name: string): RegisteredRpc | undefined {
    // Own keys only: "__proto__" or "constructor" are not methods.
    return this.#byName.get(name)
  }

  all(): RegisteredRpc[] {
    return [...this.#byName.values()]
  }
}
