import type { FastifyInstance } from 'fastify'
import { bootstrapPlatform } from '../bootstrap.js'
import type { Config } from '../config.js'
import { startDataDir, type DataDirDatabase } from '../data-dir.js'
import { createLogger } from '../logger.js'
import { startTracing, type Tracing } from '../tracing.js'
import { openSystem, type System, type SystemOptions } from '../system.js'
import { resolveServiceKey } from '../../commands/secrets/service-key.js'
import { createLanguageModel } from '../../processors/language-model/index.js'

export const ROLES = ['all', 'api', 'projections', 'processors'] as const
export type Role = (typeof ROLES)[number]

/**
 * `npm start`: migrations, projections and the API in one process (role all), over the embedded
 * PostgreSQL in DATA_DIR unless DATABASE_URL is set. Roles split the work across processes.
 */
/** What a test harness may add to a served process (tests' own job handlers); production passes nothing. */
export type ServeExtras = Pick<SystemOptions, 'jobHandlers'>

/** The longest an orderly shutdown may take (Docker's default stop grace is 10 s before its SIGKILL). */
const SHUTDOWN_DEADLINE_MS = 9_000

export async function serve(config: Config, role: Role, extras: ServeExtras = {}): Promise<void> {
  const log = createLogger(config.logLevel)
  let database: DataDirDatabase | undefined
  let system: System | undefined
  let app: FastifyInstance | undefined
  let tracing: Tracing | null = null
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    // A stop must end even when a part cannot finish (a request or query waiting on a database that is gone):
    // a process manager then restarts the service instead of SIGKILLing one that ignored it.
    setTimeout(() => {
      log.error({ signal, after_ms: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time; exiting')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    await app?.close().catch((error) => log.error({ err: error }, 'closing the HTTP server failed'))
    await system?.close().catch((error) => log.error({ err: error }, 'closing the system failed'))
    await database?.close().catch((error) => log.error({ err: error }, 'stopping PostgreSQL failed'))
    // Last: the spans of the shutdown itself are sent too.
    await tracing?.shutdown().catch((error) => log.error({ err: error }, 'flushing traces failed'))
    process.exit(0)
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))

  database = config.databaseUrl
    ? { url: config.databaseUrl, close: async () => {} }
    : await startDataDir(config.dataDir, 'npm start', (line: string, level: 'debug' | 'info' | 'warn' | 'error' = 'debug') =>
        // The server's own lines at debug; its supervisor's (it died, it runs again) at their level.
        level === 'debug' ? log.debug({ postgres: line }) : log[level](line),
      )
  // Before anything that may be traced; off (and its SDK never loaded) without OTEL_EXPORTER_OTLP_ENDPOINT.
  tracing = await startTracing({ endpoint: config.observability.otlpEndpoint, log })
  const serviceKey = await resolveServiceKey({
    given: config.webhooks.serviceKey,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
  })
  system = await openSystem({
    databaseUrl: database.url,
    eventStoreUrl: config.eventStoreUrl,
    log,
    readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
    bodyLimit: config.bodyLimit,
    onRebuildProgress: (p) => log.info(p, 'rebuilding read models'),
    aeo: config.aeo,
    aeoProcessors: config.aeoProcessors,
    publicDocs: {
      baseUrl: config.baseUrlGiven ? config.baseUrl : undefined,
      securityContact: config.securityContact,
      sandbox: config.sandbox.enabled,
    },
    writesEnabled: config.writesEnabled,
    idempotency: config.idempotency,
    sandbox: config.sandbox,
    rateLimits: config.rateLimits,
    jobs: config.jobs,
    search: config.search,
    monitoring: config.monitoring,
    publishing: config.publishing,
    languageModel: createLanguageModel(config.languageModel),
    ...extras,
    webhooks: { serviceKey, allowList: config.webhooks.allowList, backoffBaseMs: config.webhooks.backoffBaseMs },
    sso: { allowList: config.sso.allowList, publicSignup: config.sso.publicSignup },
    metricsToken: config.observability.metricsToken,
    tracing: tracing !== null,
  })
  if (role === 'all' || role === 'projections') system.runner.start()
  if (role === 'all' || role === 'processors') system.startProcessors()
  if (role === 'projections' || role === 'processors') {
    log.info({ role }, `${role} started`)
    return
  }

  const outcome = await bootstrapPlatform(system, config.platformKey)
  app = await system.buildApp()
  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const boundPort = typeof address === 'object' && address ? address.port : config.port
  // PORT=0 picks a free port: show the one bound, unless BASE_URL says where the service is reached.
  const baseUrl = config.baseUrlGiven ? config.baseUrl : config.baseUrl.replace(/:\d+$/, `:${boundPort}`)
  const where = config.databaseUrl ? 'DATABASE_URL' : config.dataDir
  const lines = [
    `RankRelay is serving on ${baseUrl} (role ${role}, event store ${system.eventStoreKind}, data ${where})`,
    `Health: ${baseUrl}/api/v1/health`,
  ]
  if (outcome.mintedKey) {
    lines.push(
      '',
      'First start: a platform key was minted. It is shown this once and cannot be recovered; keep it safe:',
      '',
      `  ${outcome.mintedKey}`,
      '',
      `  curl -s -X POST ${baseUrl}/api/v1/rpc/create_organization \\`,
      `    -H 'Authorization: Bearer ${outcome.mintedKey}' -H 'Content-Type: application/json' -d '{"name":"My agency"}'`,
    )
  }
  process.stdout.write(`${lines.join('\n')}\n`)
}
