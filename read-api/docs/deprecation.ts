import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { announceDeprecation } from '../../commands/api-platform.js'
import { defaultSince, type DeprecationNotice } from '../../domain/api-platform/deprecation.js'
import type { RegisteredRpc, RpcRegistry } from '../registry.js'
import type { DocsDeps } from './context.js'

/** The deprecation of a registered method, with its Deprecation date filled in; null when it is current. */
export function deprecationOf(rpc: RegisteredRpc): DeprecationNotice | null {
  const d = rpc.definition.deprecated
  if (!d) return null
  return { method: rpc.definition.name, sunset: d.sunset, replacement: d.replacement ?? null, since: d.since ?? defaultSince(d.sunset) }
}

const midnight = (day: string) => new Date(`${day}T00:00:00Z`)

/**
 * The response headers of a call to a deprecated method: Deprecation (RFC 9745, `@<unix seconds>`),
 * Sunset (RFC 8594, an HTTP-date) and Link to the changelog (rel="deprecation") and to the replacement's
 * documentation (rel="successor-version").
 */
export function deprecationHeaders(notice: DeprecationNotice, baseUrl: string): Record<string, string> {
  const links = [`<${baseUrl}/changelog.md#deprecations>; rel="deprecation"; type="text/markdown"`]
  if (notice.replacement)
    links.push(`<${baseUrl}/developers.md#${notice.replacement}>; rel="successor-version"; title="${notice.replacement}"`)
  return {
    Deprecation: `@${Math.floor(midnight(notice.since).getTime() / 1000)}`,
    Sunset: midnight(notice.sunset).toUTCString(),
    Link: links.join(', '),
  }
}

const RPC_ROUTE = '/api/v1/rpc/:method'

/**
 * A step of the app's onSend hook (root level, so errors get them too): every call to a deprecated method answers the deprecation
 * headers, whatever its outcome — a client whose call is refused must still learn the method is going.
 */
export function deprecationHook(registry: RpcRegistry, baseUrlOf: (request: FastifyRequest) => string) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    const method = (request.params as { method?: string } | undefined)?.method
    const registered = method === undefined ? undefined : registry.get(method)
    const notice = registered ? deprecationOf(registered) : null
    // The route is checked last: request.routeOptions builds a new object on every access (fastify 5), and
    // almost every response is of a current method.
    if (notice && request.routeOptions.url === RPC_ROUTE) {
      for (const [name, value] of Object.entries(deprecationHeaders(notice, baseUrlOf(request)))) reply.header(name, value)
    }
  }
}

/** How often an API process re-checks whether a deprecation's notice period has begun. */
export const DEPRECATION_CHECK_INTERVAL_MS = 6 * 3600_000

/**
 * Records the api.deprecation event (ApiDeprecationAnnounced) for every deprecated method whose sunset is
 * within the notice period: at startup (awaited by app.ready(), so a process that serves has announced) and
 * then periodically, since a long-running process crosses the 60-day line without a restart. Each API process
 * runs it; the event stream makes it exactly once. Failures are logged and retried on the next tick.
 */
export function scheduleDeprecationAnnouncements(app: FastifyInstance, deps: DocsDeps): void {
  const check = async () => {
    for (const rpc of deps.registry.all()) {
      const notice = deprecationOf(rpc)
      if (!notice) continue
      try {
        if (await announceDeprecation(deps.write, notice))
          app.log.info({ method: notice.method, sunset: notice.sunset }, 'api.deprecation recorded')
      } catch (error) {
        app.log.warn({ err: error, method: notice.method }, 'recording api.deprecation failed; retrying on the next check')
      }
    }
  }
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    await check()
    timer = setInterval(() => void check(), DEPRECATION_CHECK_INTERVAL_MS)
    timer.unref()
  })
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer)
  })
}
