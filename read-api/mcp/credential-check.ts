import type { Caller } from '../caller.js'
import { requireCredentialAllows } from '../platform/invoke-rpc.js'
import type { RpcRegistry } from '../registry.js'
import { isToolRpc } from './registry-tools.js'

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The RPC a JSON-RPC message would run, if it is a tools/call of an RPC tool or of call_rpc. */
export function targetMethod(message: unknown): string | undefined {
  if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params)) return undefined
  const { name, arguments: args } = message.params
  if (name === 'call_rpc') return isObject(args) && typeof args.method === 'string' ? args.method : undefined
  return typeof name === 'string' ? name : undefined
}

/**
 * Refusals that are about the credential, not the call, answer as HTTP statuses on MCP as on REST, before any
 * JSON-RPC is dispatched: 403 insufficient_scope (with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="write"`, which the MCP authorization specification's clients use to ask the user for more scope)
 * and 403 sandbox_read_only. 401 comes earlier, from authentication. Every other refusal (a missing record,
 * bad parameters, writes switched off, platform-only) is the tool's answer: an `isError` result.
 *
 * Throws the same ApiError the REST path would; a batch is refused whole if any call in it is.
 */
export function requireCredentialAllowsMessages(body: unknown, registry: RpcRegistry, caller: Caller): void {
  const messages = Array.isArray(body) ? body : [body]
  for (const message of messages) {
    const method = targetMethod(message)
    const registered = method === undefined ? undefined : registry.get(method)
    if (!registered) continue
    // A direct call of a method that is not a tool answers "unknown tool"; only call_rpc reaches it.
    const viaCallRpc = isObject(message) && isObject(message.params) && message.params.name === 'call_rpc'
    if (!viaCallRpc && !isToolRpc(registered)) continue
    requireCredentialAllows(caller, registered.definition)
  }
}
