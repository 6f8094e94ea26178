import { z } from 'zod'
import type { CommandContext, WriteDeps } from '../commands/command-handler.js'
import type { EventStore } from '../commands/event-store/port.js'
import type { ReadDb } from '../projections/tables.js'
import type { Caller } from './caller.js'

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
  /**
   * Waits until the read models show this request's writes (bounded). A write handler that answers with a
   * read calls it first; the edge calls it anyway before answering any write.
   */
  readonly settle: () => Promise<void>
}

export type Access = 'read' | 'write'

export interface RpcDefinition<TParams extends z.ZodType = z.ZodType, TResult extends z.ZodType = z.ZodType> {
  readonly name: string
  /** The product domain the method is listed under (clients, org-admin, …). */
  readonly domain: string
  /** read needs the read scope; write needs write and waits for read-your-writes. */
  readonly access: Access
  /** Takes an org_id: injected for organization keys, passed by platform keys. */
  readonly orgScoped: boolean
  /** Only partner/platform keys (org_id null) may call it. */
  readonly platformOnly?: boolean
  readonly summary: string
  readonly params: TParams
  readonly result: TResult
  readonly handler: (context: RpcContext<z.infer<TParams>>) => Promise<z.infer<TResult>>
}

/** Declares an RPC. Everything else (route, auth, validation, documents) is derived from the declaration. */
export function rpc<TParams extends z.ZodType, TResult extends z.ZodType>(
  definition: RpcDefinition<TParams, TResult>,
): RpcDefinition<TParams, TResult> {
  return definition
}

export type AnyRpc = RpcDefinition<z.ZodType, z.ZodType>

/** The registry: deny by default, so only what is listed here can be called. */
export class RpcRegistry {
  readonly #byName = new Map<string, AnyRpc>()

  constructor(definitions: readonly AnyRpc[]) {
    for (const definition of definitions) {
      if (this.#byName.has(definition.name)) throw new Error(`RPC ${definition.name} is declared twice`)
      this.#byName.set(definition.name, definition)
    }
  }

  get(name: string): AnyRpc | undefined {
    return this.#byName.get(name)
  }

  all(): AnyRpc[] {
    return [...this.#byName.values()]
  }
}
