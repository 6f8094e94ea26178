import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { WriteDeps } from '../commands/command-handler.js'
import type { EventStore } from '../commands/event-store/port.js'
import { PostgresEventStore } from '../commands/event-store/postgres.js'
import { SequenceIds } from '../commands/ids.js'
import { migrateToLatest } from '../migrations/index.js'
import { LIVE_SCHEMA, READ_MODEL_VERSION } from '../migrations/read-models/index.js'
import { MAIN_GROUP, projectors } from '../projections/index.js'
import { rebuildReadModels, type RebuildProgress } from '../projections/rebuild.js'
import { ProjectionRunner } from '../projections/runner.js'
import { ensureLiveReadModels } from '../projections/setup.js'
import { readModelsIn, type ReadDb } from '../projections/tables.js'
import { ProjectionWatermark } from '../projections/watermark.js'
import { buildApp } from '../read-api/app.js'
import { createRegistry } from '../read-api/rpc/index.js'
import type { RpcRegistry } from '../read-api/registry.js'
import type { PublicDocsSettings } from '../read-api/docs/context.js'
import { openPool, type Database } from './postgres.js'
import { outageAwareLogger } from './outage-log.js'
import { StoreOutageWatch } from './store-outage.js'
import type { IdempotencySettings } from '../read-api/platform/idempotency.js'
import { DEFAULT_AEO_SETTINGS, type AeoSettings } from '../commands/aeo/settings.js'
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '../read-api/settings.js'
import { createProcessors } from '../processors/index.js'
import type { Processor } from '../processors/runtime.js'
import { DEFAULT_AEO_PROCESSOR_SETTINGS, type AeoProcessorSettings } from '../processors/aeo/settings.js'
import { sandboxProcessor, type SandboxSettings } from './sandbox/schedule.js'
import { PostgresBlobStore } from '../commands/files/postgres-blob-store.js'
import { jobHandlersOf } from '../processors/jobs/index.js'
import type { JobHandlers } from '../processors/jobs/handler.js'
import { DEFAULT_JOB_SETTINGS, type JobSettings } from '../processors/jobs/settings.js'
import type { LanguageModel } from '../processors/language-model/port.js'
import { clientSitesOf, sitePublisher } from '../processors/site-edits/site-publisher.js'
import { ephemeralServiceKey, type ServiceKey } from '../commands/secrets/service-key.js'
import { systemResolver, type Resolver, type WebhookPolicy } from '../commands/webhooks.js'
import type { PasswordResetDelivery } from '../read-api/people/settings.js'
import { EMPTY_ALLOW_LIST, type AllowList } from '../domain/webhooks/url-policy.js'
import { DEFAULT_WEBHOOK_TUNING, type WebhookProcessorSettings } from '../processors/webhooks/settings.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS, type SearchProviderSettings } from '../processors/search/settings.js'
import { DEFAULT_MONITORING_SETTINGS, type MonitoringSettings } from '../processors/monitoring/settings.js'
import { DEFAULT_WORDPRESS_SETTINGS, type WordPressSettings } from '../commands/publishing/wordpress/settings.js'

export interface SystemOptions {
  readonly databaseUrl: string
  readonly eventStoreUrl?: string | undefined
  readonly log: Logger
  readonly readYourWritesTimeoutMs?: number
  readonly bodyLimit?: number
  readonly clock?: () => Date
  readonly onRebuildProgress?: (progress: RebuildProgress) => void
  readonly aeo?: AeoSettings
  readonly aeoProcessors?: AeoProcessorSettings
  readonly publicDocs?: PublicDocsSettings
  /** WRITES_ENABLED and the idempotency settings (API platform); defaults when absent. */
  readonly writesEnabled?: boolean | undefined
  readonly idempotency?: IdempotencySettings
  /** The public sandbox keeper (processors role); off unless given and enabled. */
  readonly sandbox?: SandboxSettings
  readonly rateLimits?: RateLimitSettings
  /** The job runner and watchdog (JOB_* settings). */
  readonly jobs?: JobSettings
  /** The job kinds' handlers; default processors/jobs/kinds. Tests pass their own (no test kind in production code). */
  readonly jobHandlers?: JobHandlers
  /** Text generation for jobs; null (the default) until a provider adapter is configured. */
  readonly languageModel?: LanguageModel | null
  readonly webhooks?: WebhookOptions
  /** The search data providers (DATAFORSEO_*, SERPAPI_*, GSC_*) and their limits; default: none configured. */
  readonly search?: SearchProviderSettings
  /** The site monitor (SITE_ALLOWED_HOSTS, crawl bounds, CHROMIUM_PATH); default: nothing private allowed. */
  readonly monitoring?: MonitoringSettings
  /** How the service talks to clients' WordPress sites (SITE_ALLOWED_HOSTS, WORDPRESS_*; tests: allow list, resolver); default: nothing private allowed, the webhooks' resolver. */
  readonly publishing?: Partial<WordPressSettings>
  /** Sign-in: where password-reset links go (no email adapter ships; tests capture them). */
  readonly people?: { readonly deliverPasswordReset?: PasswordResetDelivery }
  /** Single sign-on: the identity-provider address allow-list (SSO_ALLOWED_HOSTS), resolver and SSO_PUBLIC_SIGNUP; defaults: none, DNS, off. */
  readonly sso?: { readonly allowList?: AllowList; readonly resolve?: Resolver; readonly publicSignup?: boolean }
  /** METRICS_TOKEN (GET /metrics); none: loopback scrapers only. */
  readonly metricsToken?: string | undefined
  /** Whether ops/tracing.ts started an OpenTelemetry SDK (the app then traces every request). */
  readonly tracing?: boolean
}

/** Webhook settings; every part has a default (an ephemeral service key: only `serve` must keep its key). */
export interface WebhookOptions {
  readonly serviceKey?: ServiceKey
  readonly allowList?: AllowList
  /** How host names resolve (tests map names to addresses). */
  readonly resolve?: Resolver
  readonly backoffBaseMs?: number
  readonly timeoutMs?: number
  readonly concurrency?: number
  readonly perHostCap?: number
  readonly pollMs?: number
}

/** Everything one process needs, wired once: the composition root shared by serve, ops and tests. */
export interface System {
  readonly database: Database
  readonly store: EventStore
  readonly eventStoreKind: 'postgres' | 'eventstoredb'
  readonly write: WriteDeps
  readonly read: ReadDb
  readonly watermark: ProjectionWatermark
  readonly runner: ProjectionRunner
  readonly registry: RpcRegistry
  readonly log: Logger
  /** The process managers and workers (not started: the processors role starts them). */
  readonly processors: readonly Processor[]
  startProcessors(): void
  buildApp(): Promise<FastifyInstance>
  close(): Promise<void>
}

export async function createEventStore(databaseUrl: string, database: Database, eventStoreUrl?: string): Promise<EventStore> {
  // Imported only for an EventStoreDB store: its gRPC client is ~170 modules every other process would load.
  if (eventStoreUrl)
    return (await import('../commands/event-store/eventstoredb.js')).EventStoreDbEventStore.fromConnectionString(eventStoreUrl)
  return new PostgresEventStore({ connectionString: databaseUrl, pool: database.pool })
}

/**
 * Opens the database, applies migrations, makes sure the read models exist (rebuilding them blue/green when
 * the code expects a newer read-model version) and wires the parts. Starts nothing: callers start the
 * runner and the HTTP app as their role needs.
 */
export async function openSystem(options: SystemOptions): Promise<System> {
  // While the database is down, every part's failures about it become one outage line (ops/store-outage.ts).
  const outage = new StoreOutageWatch({ log: options.log, probe: () => database.pool.query('select 1') })
  const log = outageAwareLogger(options.log, outage)
  const database = openPool(options.databaseUrl, { onError: (error) => log.warn({ err: error }, 'database connection lost') })
  try {
    await migrateToLatest(database.db)
    const store = await createEventStore(options.databaseUrl, database, options.eventStoreUrl)
    const { version } = await ensureLiveReadModels(database.db, [MAIN_GROUP])
    if (version < READ_MODEL_VERSION) {
      log.info({ from: version, to: READ_MODEL_VERSION }, 'read models are older than this code: rebuilding them')
      await rebuildReadModels({ store, db: database.db, projectors, group: MAIN_GROUP, onProgress: options.onRebuildProgress })
    }
    const read = readModelsIn(database.db, LIVE_SCHEMA)
    const watermark = new ProjectionWatermark({ db: database.db, store, schema: LIVE_SCHEMA, group: MAIN_GROUP })
    const runner = new ProjectionRunner({ store, db: database.db, projectors, group: MAIN_GROUP, schema: LIVE_SCHEMA, watermark, log })
    const write: WriteDeps = { store, ids: new SequenceIds(database.pool), clock: options.clock ?? (() => new Date()) }
    const registry = createRegistry()
    const aeo = options.aeo ?? DEFAULT_AEO_SETTINGS
    // The write clock: a file's expires_at (exports) is judged by the same clock that set it.
    const blobs = new PostgresBlobStore(database.db, write.clock)
    const jobHandlers = jobHandlersOf({ jobHandlers: options.jobHandlers })
    const w = options.webhooks ?? {}
    const webhookPolicy: WebhookPolicy = {
      serviceKey: w.serviceKey ?? ephemeralServiceKey(),
      allowList: w.allowList ?? EMPTY_ALLOW_LIST,
      resolve: w.resolve ?? systemResolver,
    }
    const webhooks: WebhookProcessorSettings = {
      policy: webhookPolicy,
      backoffBaseMs: w.backoffBaseMs ?? DEFAULT_WEBHOOK_TUNING.backoffBaseMs,
      timeoutMs: w.timeoutMs ?? DEFAULT_WEBHOOK_TUNING.timeoutMs,
      concurrency: w.concurrency ?? DEFAULT_WEBHOOK_TUNING.concurrency,
      perHostCap: w.perHostCap ?? DEFAULT_WEBHOOK_TUNING.perHostCap,
      pollMs: w.pollMs ?? DEFAULT_WEBHOOK_TUNING.pollMs,
      baseUrl: options.publicDocs?.baseUrl,
    }
    const publishing: WordPressSettings = { ...DEFAULT_WORDPRESS_SETTINGS, resolve: webhookPolicy.resolve, ...options.publishing }
    const processors = [
      ...createProcessors({
        store,
        write,
        read,
        db: database.db,
        watermark,
        log,
        aeo,
        aeoProcessors: options.aeoProcessors ?? DEFAULT_AEO_PROCESSOR_SETTINGS,
        jobs: options.jobs ?? DEFAULT_JOB_SETTINGS,
        jobHandlers,
        languageModel: options.languageModel ?? null,
        blobs,
        webhooks,
        search: options.search ?? DEFAULT_SEARCH_PROVIDER_SETTINGS,
        monitoring: {
          ...(options.monitoring ?? DEFAULT_MONITORING_SETTINGS),
          resolve: options.monitoring?.resolve ?? webhookPolicy.resolve,
        },
        serviceKey: webhookPolicy.serviceKey,
        publishing,
      }),
      ...(options.sandbox?.enabled ? [sandboxProcessor({ write, read, db: database.db, watermark, log }, options.sandbox)] : []),
    ]
    let processorsStarted = false
    return {
      database,
      store,
      eventStoreKind: options.eventStoreUrl ? 'eventstoredb' : 'postgres',
      write,
      read,
      watermark,
      runner,
      registry,
      log,
      processors,
      startProcessors() {
        if (processorsStarted) return
        processorsStarted = true
        for (const processor of processors) processor.start()
      },
      buildApp: () =>
        buildApp({
          logger: log,
          bodyLimit: options.bodyLimit ?? 1024 * 1024,
          registry,
          read,
          write,
          watermark,
          readYourWritesTimeoutMs: options.readYourWritesTimeoutMs ?? 5000,
          eventStoreKind: options.eventStoreUrl ? 'eventstoredb' : 'postgres',
          db: database.db,
          settings: {
            aeo,
            rateLimits: options.rateLimits ?? DEFAULT_RATE_LIMITS,
            webhooks: webhookPolicy,
            serviceKey: webhookPolicy.serviceKey,
            keywordMetricsMaxAgeDays: (options.search ?? DEFAULT_SEARCH_PROVIDER_SETTINGS).metricsMaxAgeDays,
            sitePublisher: sitePublisher({ read, sites: clientSitesOf(write, publishing, webhookPolicy.serviceKey) }),
            publishing,
            // One service key for everything sealed: webhook secrets and TOTP secrets.
            people: {
              serviceKey: webhookPolicy.serviceKey,
              baseUrl: options.publicDocs?.baseUrl,
              ...(options.people?.deliverPasswordReset ? { deliverPasswordReset: options.people.deliverPasswordReset } : {}),
            },
            // OIDC client secrets are sealed with the same key; IdP fetches have their own allow-list.
            sso: {
              serviceKey: webhookPolicy.serviceKey,
              allowList: options.sso?.allowList ?? EMPTY_ALLOW_LIST,
              resolve: options.sso?.resolve ?? webhookPolicy.resolve,
              baseUrl: options.publicDocs?.baseUrl,
              publicSignup: options.sso?.publicSignup ?? false,
            },
          },
          ...(options.publicDocs ? { publicDocs: options.publicDocs } : {}),
          writesEnabled: options.writesEnabled,
          idempotency: options.idempotency,
          blobs,
          jobKinds: new Set(Object.keys(jobHandlers)),
          metricsToken: options.metricsToken,
          tracing: options.tracing ?? false,
        }),
      async close() {
        outage.close()
        await Promise.all(processors.map((p) => p.stop()))
        await runner.stop()
        await store.close()
        await database.close()
      },
    }
  } catch (error) {
    outage.close()
    await database.close().catch(() => {})
    throw error
  }
}
