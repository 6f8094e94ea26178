import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { LanguageModel } from '../../processors/language-model/port.js'
import pino, { type Logger } from 'pino'
import type { AeoSettings } from '../../commands/aeo/settings.js'
import type { AeoProcessorSettings } from '../../processors/aeo/settings.js'
import type { RateLimitSettings } from '../../read-api/settings.js'
import type { JobHandlers } from '../../processors/jobs/handler.js'
import type { JobSettings } from '../../processors/jobs/settings.js'
import { mintPlatformKey } from '../../commands/platform.js'
import { openSystem, type System, type SystemOptions, type WebhookOptions } from '../../ops/system.js'
import { createTestDatabase, type TestDatabase } from './database.js'
import { readModelsAt } from './read-models.js'

interface TestContext {
  teardown(fn: () => unknown): void
}

export interface TestSystem {
  readonly database: TestDatabase
  readonly system: System
  readonly app: FastifyInstance
  /** A platform key (org_id null, every scope). */
  readonly platformKey: string
  /** POST /api/v1/rpc/<method> with a bearer key; returns the raw response. */
  rpc(method: string, body: unknown, key?: string): Promise<LightMyRequestResponse>
  /** Like rpc, but expects 200 and returns `result`. */
  call<T = any>(method: string, body: unknown, key?: string): Promise<T>
}

export interface TestSystemOptions {
  /** Start the projection runner (default true). */
  readonly runProjections?: boolean
  readonly readYourWritesTimeoutMs?: number
  readonly clock?: () => Date
  /** Start the processors (scheduler, server agent; default false). */
  readonly runProcessors?: boolean
  readonly aeo?: AeoSettings
  readonly aeoProcessors?: AeoProcessorSettings
  /**
   * Rate limits; by default so high that no test meets them by accident (the rate-limit tests set small
   * ones).
   */
  readonly rateLimits?: RateLimitSettings
  /** Job runner settings (small values make heartbeats and the watchdog quick). */
  readonly jobs?: JobSettings
  /** The job handlers, instead of processors/jobs/kinds (a test's own handlers for the engine's tests). */
  readonly jobHandlers?: JobHandlers
  /** The jobs' language model (default none: the built-in writers). */
  readonly languageModel?: LanguageModel | null
  /** Webhook settings (allow-list, resolver, backoff, dispatcher tuning); defaults as openSystem's. */
  readonly webhooks?: WebhookOptions
  /** The search data providers (tests point them at their local stand-ins); default: none configured. */
  readonly search?: SystemOptions['search']
  /** The site monitor's settings (tests list 127.0.0.1 in allowList and make the bounds small). */
  readonly monitoring?: SystemOptions['monitoring']
  /** The WordPress client's settings (tests list 127.0.0.1 in allowList: standInSettings() of the WordPress stand-in). */
  readonly publishing?: SystemOptions['publishing']
  /** Sign-in: where password-reset links go (tests capture them). */
  readonly people?: SystemOptions['people']
  /** The public documents' settings (BASE_URL: an https one makes sign-in cookies Secure). */
  readonly publicDocs?: SystemOptions['publicDocs']
  /** Single sign-on: the identity-provider allow-list (SSO_ALLOWED_HOSTS) and resolver. */
  readonly sso?: SystemOptions['sso']
  /** METRICS_TOKEN for GET /metrics (default none: loopback scrapers only). */
  readonly metricsToken?: string
  /** The service's logger (default: silent, or TEST_LOG_LEVEL); the log tests pass one that writes to a stream they read. */
  readonly log?: Logger
  /** Trace every request (the test has started tracing with ops/tracing.ts first). */
  readonly tracing?: boolean
}

/** The whole service on a fresh database, as `npm start` wires it, with the app ready for inject(). */
export async function startTestSystem(t: TestContext, options: TestSystemOptions = {}): Promise<TestSystem> {
  const database = await createTestDatabase(t)
  const system = await openSystem({
    databaseUrl: database.url,
    log: options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    readYourWritesTimeoutMs: options.readYourWritesTimeoutMs ?? 5000,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.aeo ? { aeo: options.aeo } : {}),
    ...(options.aeoProcessors ? { aeoProcessors: options.aeoProcessors } : {}),
    rateLimits: options.rateLimits ?? { defaultPerMinute: 1_000_000 },
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.jobHandlers ? { jobHandlers: options.jobHandlers } : {}),
    ...(options.languageModel ? { languageModel: options.languageModel } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.search ? { search: options.search } : {}),
    ...(options.monitoring ? { monitoring: options.monitoring } : {}),
    ...(options.publishing ? { publishing: options.publishing } : {}),
    ...(options.people ? { people: options.people } : {}),
    ...(options.publicDocs ? { publicDocs: options.publicDocs } : {}),
    ...(options.sso ? { sso: options.sso } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    ...(options.tracing ? { tracing: true } : {}),
  })
  if (options.runProjections !== false) system.runner.start()
  if (options.runProcessors) system.startProcessors()
  const app = await system.buildApp()
  t.teardown(async () => {
    await app.close()
    await system.close()
  })
  const created = await mintPlatformKey(system.write, { name: 'test platform key' })
  if (options.runProjections !== false) await readModelsAt({ system }, created.position)
  const platformKey = created.key
  const rpc = (method: string, body: unknown, key: string = platformKey) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/rpc/${method}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
  const call = async (method: string, body: unknown, key?: string) => {
    const response = await rpc(method, body, key)
    if (response.statusCode !== 200) throw new Error(`${method} answered ${response.statusCode}: ${response.body}`)
    return response.json().result
  }
  return { database, system, app, platformKey, rpc, call }
}

/** An organization and an org-scoped key (every scope unless given) for it. */
export async function createOrgWithKey(ts: TestSystem, name = 'Acme', scopes = 'read,write,jobs'): Promise<{ orgId: number; key: string }> {
  const orgId = await ts.call<number>('create_organization', { name })
  const created = await ts.call<{ key: string }>('create_api_key', { name: `${name} key`, org_id: orgId, scopes })
  return { orgId, key: created.key }
}
