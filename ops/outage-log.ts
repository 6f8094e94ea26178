import type { Logger } from 'pino'
import type { StoreOutageWatch } from './store-outage.js'

/**
 * The service's logger, with every warn, error or fatal line whose error says the store is unreachable handed
 * to the outage watch (which logs the outage once) and kept at debug. One place for every caller: the request
 * error handler, the projection runner, each processor loop and the pool all log through the System's
 * logger, so none of them needs to know about outages. Children (fastify's per-request loggers) divert too.
 */
export function outageAwareLogger(log: Logger, watch: StoreOutageWatch): Logger {
  return new Proxy(log, {
    get(target, property) {
      if (property === 'child') {
        return (bindings: Record<string, unknown>, options?: Record<string, unknown>) =>
          outageAwareLogger(target.child(bindings, options), watch)
      }
      if (property === 'warn' || property === 'error' || property === 'fatal') {
        return (first: unknown, ...rest: unknown[]) => {
          const call = (level: 'debug' | 'warn' | 'error' | 'fatal') =>
            (target[level] as (...args: unknown[]) => void).call(target, first, ...rest)
          return watch.note(errorOf(first)) ? call('debug') : call(property)
        }
      }
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** The error a pino call logs: the object itself, or its `err` (pino's convention) or `error` field. */
function errorOf(first: unknown): unknown {
  if (typeof first !== 'object' || first === null) return undefined
  if (first instanceof Error) return first
  const fields = first as { err?: unknown; error?: unknown }
  return fields.err ?? fields.error
}
