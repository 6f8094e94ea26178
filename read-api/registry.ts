import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { AeoSettings } from '../commands/aeo/settings.js'
import type { CommandContext, WriteDeps } from '../commands/command-handler.js'
import type { EventStore } from '../commands/event-store/port.js'
import type { ReadDb } from '../projections/tables.js'
import type { Caller } from './caller.js'
import type { RateLimitSettings } from './platform/rate-limit.js'
import { Id } from '../domain/shared/values.js'

/** What a handler gets: validated params, who calls, the read models, and the write side. */
export interface RpcContext<TParams> {
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
  /** The log, for history and point-in-time reads. */
  readonly store: EventStore
  /** The database itself (public schema): processor work tables such as AI Visibility claim leases. */
  readonly db: Kysely<any>
  readonly settings: ServiceSettings
  /**
   * Waits until the read models show this request's writes (bounded). A write handler that answers with a
   * read calls it first; the edge calls it anyway before answering any write.
   */
  readonly settle: () => Promise<void>
}

/** Operator settings handlers need (from ops/config.ts). */
export interface ServiceSettings {
  readonly aeo: AeoSettings
  readonly rateLimits: RateLimitSettings
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
}

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
  /** `params`, plus `org_id` (an id, or null for "none") when the method is org-scoped. */
  readonly input: z.ZodType
}

const OrgIdParam = Id.nullable().optional()

/** The registry: deny by default, so only what is listed here can be called. */
export class RpcRegistry {
  readonly #byName = new Map<string, RegisteredRpc>()

  constructor(definitions: readonly AnyRpc[]) {
    for (const definition of definitions) {
      if (this.#byName.has(definition.name)) throw new Error(`RPC ${definition.name} is declared twice`)
      if ('org_id' in definition.params.shape) throw new Error(`RPC ${definition.name} declares org_id itself; set orgScoped`)
      const input = definition.orgScoped ? definition.params.extend({ org_id: OrgIdParam }) : definition.params
      this.#byName.set(definition.name, { definition, input })
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
