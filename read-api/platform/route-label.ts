import type { FastifyRequest } from 'fastify'
import type { RpcRegistry } from '../registry.js'

/**
 * The name of what a request asked for, for metrics labels and span names: the route pattern, never the URL
 * (a label per URL would let any scanner create series without bound); an RPC route names its method when
 * the registry has it (a bounded set); anything no route matched is `unmatched`.
 */
export function routeLabel(request: FastifyRequest, registry: RpcRegistry): string {
  const pattern = request.routeOptions.url
  if (pattern === undefined) return 'unmatched'
  if (pattern === RPC_ROUTE) {
    const method = (request.params as { method?: string } | undefined)?.method
    if (method !== undefined && registry.get(method)) return `/api/v1/rpc/${method}`
  }
  return pattern
}

const RPC_ROUTE = '/api/v1/rpc/:method'
