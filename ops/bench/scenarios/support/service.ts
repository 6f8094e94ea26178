import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { mintPlatformKey } from '../../../../commands/platform.js'
import type { MonitoringSettings } from '../../../../processors/monitoring/settings.js'
import { openSystem, type System } from '../../../system.js'
import type { BenchContext, BenchDatabase } from '../../types.js'

/** The whole service on a fresh database, listening on 127.0.0.1, with a platform key and one organization. */
export interface RunningService {
  readonly database: BenchDatabase
  readonly system: System
  readonly app: FastifyInstance
  /** http://127.0.0.1:<port> */
  readonly origin: string
  readonly platformKey: string
  readonly orgId: number
  /** An org-scoped key with read, write and jobs. */
  readonly orgKey: string
  /** POST /api/v1/rpc/<method> over the socket; throws unless 200; returns `result`. */
  call<T = unknown>(method: string, params: unknown, key?: string): Promise<T>
  close(): Promise<void>
}

/** The headers every RPC request of the bench sends. */
export function rpcHeaders(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
}

/**
 * Starts the service as `npm start` wires it (projection runner in process, read-your-writes on), on a new
 * database of the bench's server, with the processors when asked. The HTTP app is built and listening before
 * it returns.
 */
export async function startService(
  context: BenchContext,
  options: { readonly monitoring?: MonitoringSettings; readonly processors?: boolean } = {},
): Promise<RunningService> {
  const database = await context.createDatabase()
  // The limiter still counts every request (its cost is part of what is measured); the limit is set out of
  // reach so that the load itself is never answered 429.
  const system = await openSystem({
    databaseUrl: database.url,
    log: pino({ level: 'silent' }),
    rateLimits: { defaultPerMinute: 1_000_000 },
    ...(options.monitoring ? { monitoring: options.monitoring } : {}),
  })
  let app: FastifyInstance | undefined
  try {
    system.runner.start()
    // The processors role in the same process, for scenarios that measure work it does (a site scan).
    if (options.processors) system.startProcessors()
    app = await system.buildApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const origin = `http://127.0.0.1:${port}`

    const created = await mintPlatformKey(system.write, { name: 'bench platform key' })
    if (created.position && !(await system.watermark.waitFor(created.position, 10_000))) {
      throw new Error('the projections did not reach the platform key within 10 s')
    }
    const platformKey = created.key
    const call = async <T>(method: string, params: unknown, key: string = platformKey): Promise<T> => {
      const response = await fetch(`${origin}/api/v1/rpc/${method}`, {
        method: 'POST',
        headers: rpcHeaders(key),
        body: JSON.stringify(params),
      })
      const text = await response.text()
      if (response.status !== 200) throw new Error(`${method} answered ${response.status}: ${text}`)
      return (JSON.parse(text) as { result: T }).result
    }
    const orgId = await call<number>('create_organization', { name: 'Bench Agency' })
    const orgKey = (await call<{ key: string }>('create_api_key', { name: 'bench org key', org_id: orgId, scopes: 'read,write,jobs' })).key

    const listening = app
    return {
      database,
      system,
      app: listening,
      origin,
      platformKey,
      orgId,
      orgKey,
      call,
      async close() {
        await listening.close()
        await system.close()
      },
    }
  } catch (error) {
    await app?.close().catch(() => {})
    await system.close().catch(() => {})
    throw error
  }
}

/** Runs `count` tasks with at most `concurrency` at a time; results in task order. */
export async function inParallel<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const index = next++
      results[index] = await task(index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  return results
}
