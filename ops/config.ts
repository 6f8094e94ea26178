import path from 'node:path'
import { z } from 'zod'
import { API_KEY_PATTERN } from '../commands/api-keys.js'
import type { AeoSettings } from '../commands/aeo/settings.js'
import { DEFAULT_RETRY_BACKOFF_SECONDS, parseBackoffSchedule } from '../domain/aeo/runs/backoff.js'
import { DEFAULT_IDEMPOTENCY_SETTINGS, type IdempotencySettings } from '../read-api/platform/idempotency.js'
import type { SandboxSettings } from './sandbox/schedule.js'
import { parseServiceKey, type ServiceKey } from '../commands/secrets/service-key.js'
import { parseAllowList, type AllowList } from '../domain/webhooks/url-policy.js'
import { DEFAULT_BACKOFF_BASE_MS } from '../domain/webhooks/schedule.js'
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '../read-api/settings.js'
import { listenBaseUrl } from '../read-api/platform/public-base-url.js'
import {
  DEFAULT_AEO_PROCESSOR_SETTINGS,
  DEFAULT_MODELS,
  type AeoProcessorSettings,
  type EngineSettings,
} from '../processors/aeo/settings.js'
import {
  DATAFORSEO_DEFAULT_BASE_URL,
  DEFAULT_SEARCH_PROVIDER_SETTINGS,
  GOOGLE_TOKEN_URL,
  GSC_DEFAULT_BASE_URL,
  SERPAPI_DEFAULT_BASE_URL,
  type SearchProviderSettings,
} from '../processors/search/settings.js'
import { DEFAULT_CHROMIUM_PATH, DEFAULT_MONITORING_SETTINGS, type MonitoringSettings } from '../processors/monitoring/settings.js'
import {
  DEFAULT_WORDPRESS_MAX_ATTEMPTS,
  DEFAULT_WORDPRESS_MAX_RESPONSE_BYTES,
  DEFAULT_WORDPRESS_TIMEOUT_MS,
} from '../commands/publishing/wordpress/settings.js'
import { DEFAULT_JOB_SETTINGS, type JobSettings } from '../processors/jobs/settings.js'
import type { LanguageModelSettings } from '../processors/language-model/settings.js'

/** Fails a transform with `message` (zod's way: an issue, then NEVER). */
function refuse(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message })
  return z.NEVER
}

/**
 * Every setting, from the environment, validated once at start. A bad value stops the service with a
 * message naming the variable, rather than failing later.
 */
const Env = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'expected a port number 0-65535')
    .transform(Number)
    .pipe(z.number().max(65535))
    .default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected postgres://user:password@host:port/database')
    .optional(),
  EVENTSTORE_URL: z
    .string()
    .regex(/^(esdb|esdb\+discover):\/\//, 'expected esdb://host:2113?tls=false')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PLATFORM_KEY: z.string().regex(API_KEY_PATTERN, 'expected an rrk_ key: rrk_ followed by 20 or more letters, digits, _ or -').optional(),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  AEO_CLAIM_LEASE_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
  AEO_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  AEO_RETRY_BACKOFF_SECONDS: z
    .string()
    .default(DEFAULT_RETRY_BACKOFF_SECONDS.join(','))
    .transform((text, ctx) => parseBackoffSchedule(text) ?? refuse(ctx, 'expected whole seconds separated by commas, e.g. 60,300,1800')),
  AEO_RECORD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  AEO_AGENT_ONLINE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  AEO_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(DEFAULT_AEO_PROCESSOR_SETTINGS.sweepIntervalMs),
  AEO_AGENT_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(DEFAULT_AEO_PROCESSOR_SETTINGS.agentPollMs),
  AEO_AGENT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(DEFAULT_AEO_PROCESSOR_SETTINGS.agentConcurrency),
  // API platform: the writes switch's initial value (the database holds the truth), and how long an
  // idempotent request may run before a retry may take its key over.
  WRITES_ENABLED: z
    .enum(['true', 'false', '1', '0', 'on', 'off'])
    .transform((v) => v === 'true' || v === '1' || v === 'on')
    .optional(),
  IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .max(3600)
    .default(DEFAULT_IDEMPOTENCY_SETTINGS.inFlightTimeoutSeconds),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.url().optional(),
  ANTHROPIC_MODEL: z.string().default(DEFAULT_MODELS.claude),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().default(DEFAULT_MODELS.openai),
  GEMINI_API_KEY: z.string().optional(),
  GEMINI_BASE_URL: z.url().optional(),
  GEMINI_MODEL: z.string().default(DEFAULT_MODELS.gemini),
  // Text generation for jobs (processors/language-model): builtin (the deterministic writer, the default, so
  // nothing is sent to a provider unless asked), or anthropic / openai with that provider's key and base URL
  // above. LANGUAGE_MODEL_MODEL overrides the model (default: the provider's *_MODEL).
  LANGUAGE_MODEL_PROVIDER: z.enum(['builtin', 'anthropic', 'openai']).default('builtin'),
  LANGUAGE_MODEL_MODEL: z.string().optional(),
  SECURITY_CONTACT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'expected mailto:address or an https:// URL')
    .optional(),
  // Public sandbox (ops/sandbox): off by default, so a self-hosted install holds only its own organizations.
  SANDBOX_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  SANDBOX_RESET_INTERVAL_HOURS: z.coerce.number().int().min(0).max(8760).default(24),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_RATE_LIMITS.defaultPerMinute),
  // Jobs (processors/jobs): workers per process, the heartbeat, and how long a silent job lives before the
  // watchdog fails it.
  JOB_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(DEFAULT_JOB_SETTINGS.workerConcurrency),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(DEFAULT_JOB_SETTINGS.heartbeatSeconds),
  JOB_STALE_SECONDS: z.coerce.number().int().min(2).max(86_400).default(DEFAULT_JOB_SETTINGS.staleSeconds),
  // Webhooks: the service key that seals signing secrets (commands/secrets), the URL policy's allow-list
  // and the first retry delay (the schedule doubles it 6 times).
  SERVICE_ENCRYPTION_KEY: z
    .string()
    .transform((text, ctx) => parseServiceKey(text) ?? refuse(ctx, 'expected 32 random bytes, base64 (openssl rand -base64 32)'))
    .optional(),
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform(
      (text, ctx) =>
        parseAllowList(text) ?? refuse(ctx, 'expected comma-separated host names, IP addresses or CIDRs, e.g. 127.0.0.1,10.0.0.0/8'),
    ),
  // Single sign-on: destinations an identity provider's issuer may be at although the address policy would
  // refuse them (an IdP on the internal network, tests on 127.0.0.1); the webhook syntax, its own list.
  SSO_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform(
      (text, ctx) =>
        parseAllowList(text) ?? refuse(ctx, 'expected comma-separated host names, IP addresses or CIDRs, e.g. 127.0.0.1,10.0.0.0/8'),
    ),
  // Whether an unknown email that any organization's identity provider vouches for may create its own
  // organization (spec Authentication 7, "public signup is open"); off: only providers with allow_signup.
  SSO_PUBLIC_SIGNUP: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  WEBHOOK_BACKOFF_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(DEFAULT_BACKOFF_BASE_MS),
  // Observability: the bearer token GET /metrics requires (without it, loopback scrapers only), and the
  // OpenTelemetry collector traces go to (OTLP over HTTP; unset: tracing off, its SDK never loaded).
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,}$/, 'expected 16 or more characters without spaces (openssl rand -hex 32)')
    .optional(),
  // Search data providers (processors/search/settings.ts): DataForSEO (ranks and keyword metrics) and
  // SerpApi (ranks, when DataForSEO is not configured); Search Console credentials are per client.
  DATAFORSEO_LOGIN: z.string().optional(),
  DATAFORSEO_PASSWORD: z.string().optional(),
  DATAFORSEO_BASE_URL: z.url().default(DATAFORSEO_DEFAULT_BASE_URL),
  SERPAPI_KEY: z.string().optional(),
  SERPAPI_BASE_URL: z.url().default(SERPAPI_DEFAULT_BASE_URL),
  GSC_BASE_URL: z.url().default(GSC_DEFAULT_BASE_URL),
  GSC_TOKEN_URL: z.url().default(GOOGLE_TOKEN_URL),
  SEARCH_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.timeoutMs),
  SEARCH_PROVIDER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.maxAttempts),
  SEARCH_PROVIDER_BACKOFF_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.backoffBaseMs),
  SEARCH_PROVIDER_REQUESTS_PER_SECOND: z.coerce.number().min(0.01).max(10_000).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.requestsPerSecond),
  RANK_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.rankConcurrency),
  KEYWORD_METRICS_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.metricsMaxAgeDays),
  SEARCH_POLL_MS: z.coerce.number().int().min(100).max(86_400_000).default(DEFAULT_SEARCH_PROVIDER_SETTINGS.pollMs),
  // Site monitoring (processors/monitoring/settings.ts): where a crawl may go beyond the address policy (the
  // webhook syntax, its own list), its bounds, and the Chromium render scans drive.
  SITE_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform(
      (text, ctx) =>
        parseAllowList(text) ?? refuse(ctx, 'expected comma-separated host names, IP addresses or CIDRs, e.g. 127.0.0.1,10.0.0.0/8'),
    ),
  SITE_CRAWL_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_MONITORING_SETTINGS.maxPages),
  SITE_CRAWL_MAX_PAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(DEFAULT_MONITORING_SETTINGS.maxPageBytes),
  SITE_CRAWL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_MONITORING_SETTINGS.timeoutMs),
  SITE_CRAWL_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(DEFAULT_MONITORING_SETTINGS.hostConcurrency),
  SITE_CRAWL_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_MONITORING_SETTINGS.delayMs),
  SITE_CRAWL_USER_AGENT: z.string().trim().min(1).max(300).default(DEFAULT_MONITORING_SETTINGS.userAgent),
  SITE_SCAN_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(DEFAULT_MONITORING_SETTINGS.scanConcurrency),
  SITE_SCAN_POLL_MS: z.coerce.number().int().min(100).max(86_400_000).default(DEFAULT_MONITORING_SETTINGS.pollMs),
  CHROMIUM_PATH: z.string().trim().default(DEFAULT_CHROMIUM_PATH),
  SITE_RENDER_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_MONITORING_SETTINGS.renderMaxPages),
  // Publishing to clients' WordPress sites (commands/publishing/wordpress/settings.ts): the allow list is SITE_ALLOWED_HOSTS.
  WORDPRESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_WORDPRESS_TIMEOUT_MS),
  WORDPRESS_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * 1024 * 1024)
    .default(DEFAULT_WORDPRESS_MAX_RESPONSE_BYTES),
  WORDPRESS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(DEFAULT_WORDPRESS_MAX_ATTEMPTS),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .regex(/^https?:\/\//, 'expected an http:// or https:// URL, e.g. http://otel-collector:4318')
    .optional(),
})

export interface Config {
  readonly port: number
  readonly host: string
  readonly baseUrl: string
  /** False when baseUrl was derived from HOST and PORT (serve then uses the port it really bound). */
  readonly baseUrlGiven: boolean
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly eventStoreUrl: string | undefined
  readonly logLevel: z.infer<typeof Env>['LOG_LEVEL']
  readonly platformKey: string | undefined
  readonly readYourWritesTimeoutMs: number
  readonly bodyLimit: number
  readonly aeo: AeoSettings
  readonly aeoProcessors: AeoProcessorSettings
  /** security.txt Contact (RFC 9116); default mailto:security@<BASE_URL host>. */
  readonly securityContact: string | undefined
  /** WRITES_ENABLED: the writes switch's initial value; undefined when not set (writes start enabled). */
  readonly writesEnabled: boolean | undefined
  readonly idempotency: IdempotencySettings
  readonly sandbox: SandboxSettings
  readonly rateLimits: RateLimitSettings
  readonly jobs: JobSettings
  /** LANGUAGE_MODEL_PROVIDER (with the provider's key, base URL and model): who writes text for jobs. */
  readonly languageModel: LanguageModelSettings
  readonly webhooks: WebhookConfig
  /** SSO_ALLOWED_HOSTS: identity-provider addresses allowed despite the address policy; SSO_PUBLIC_SIGNUP. */
  readonly sso: { readonly allowList: AllowList; readonly publicSignup: boolean }
  /** METRICS_TOKEN and OTEL_EXPORTER_OTLP_ENDPOINT (undefined: not set). */
  readonly observability: ObservabilityConfig
  /** The search data providers and their limits (DATAFORSEO_*, SERPAPI_*, GSC_*, SEARCH_*, RANK_CHECK_CONCURRENCY). */
  readonly search: SearchProviderSettings
  /** How the site monitor looks at clients' sites (SITE_*, CHROMIUM_PATH). */
  readonly monitoring: MonitoringSettings
  /** How the service talks to clients' WordPress sites (SITE_ALLOWED_HOSTS, WORDPRESS_*). */
  readonly publishing: PublishingConfig
}

/** The WordPress client's bounds and allow list (the rest of WordPressSettings has defaults). */
export interface PublishingConfig {
  readonly allowList: AllowList
  readonly timeoutMs: number
  readonly maxResponseBytes: number
  readonly maxAttempts: number
}

export interface ObservabilityConfig {
  readonly metricsToken: string | undefined
  readonly otlpEndpoint: string | undefined
}

/** SERVICE_ENCRYPTION_KEY (undefined: see commands/secrets/service-key.ts resolveServiceKey), WEBHOOK_ALLOWED_HOSTS, WEBHOOK_BACKOFF_BASE_MS. */
export interface WebhookConfig {
  readonly serviceKey: ServiceKey | undefined
  readonly allowList: AllowList
  readonly backoffBaseMs: number
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as shells and compose files often produce them.
  const present = Object.fromEntries(
    Object.entries(env)
      .map(([key, value]) => [key, value?.trim()] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  )
  const parsed = Env.safeParse(present)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')
    throw new ConfigError(`Invalid configuration:\n  ${problems}`)
  }
  const e = parsed.data
  // A takeover while the first request still waits for read-your-writes would run it twice.
  if (e.IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS * 1000 <= e.READ_YOUR_WRITES_TIMEOUT_MS) {
    throw new ConfigError(
      'Invalid configuration:\n  IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: must be longer than READ_YOUR_WRITES_TIMEOUT_MS',
    )
  }
  // A lease renewed less often than it lasts would let the watchdog fail healthy jobs.
  if (e.JOB_STALE_SECONDS < 2 * e.JOB_HEARTBEAT_SECONDS) {
    throw new ConfigError('Invalid configuration:\n  JOB_STALE_SECONDS: must be at least twice JOB_HEARTBEAT_SECONDS')
  }
  const languageModel = languageModelSettings(e)
  return {
    port: e.PORT,
    baseUrlGiven: e.BASE_URL !== undefined,
    host: e.HOST,
    // Without BASE_URL the app builds its links from the address it listens on, by the same rule.
    baseUrl: (e.BASE_URL ?? listenBaseUrl(e.HOST, e.PORT)).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    eventStoreUrl: e.EVENTSTORE_URL,
    logLevel: e.LOG_LEVEL,
    platformKey: e.PLATFORM_KEY,
    readYourWritesTimeoutMs: e.READ_YOUR_WRITES_TIMEOUT_MS,
    bodyLimit: e.BODY_LIMIT_BYTES,
    aeo: {
      claimLeaseSeconds: e.AEO_CLAIM_LEASE_SECONDS,
      maxAttempts: e.AEO_MAX_ATTEMPTS,
      retryBackoffSeconds: e.AEO_RETRY_BACKOFF_SECONDS,
      recordRetentionDays: e.AEO_RECORD_RETENTION_DAYS,
      agentOnlineSeconds: e.AEO_AGENT_ONLINE_SECONDS,
    },
    aeoProcessors: {
      engines: engineSettings(e),
      sweepIntervalMs: e.AEO_SWEEP_INTERVAL_MS,
      agentPollMs: e.AEO_AGENT_POLL_MS,
      agentConcurrency: e.AEO_AGENT_CONCURRENCY,
    },
    securityContact: e.SECURITY_CONTACT,
    writesEnabled: e.WRITES_ENABLED,
    idempotency: { ...DEFAULT_IDEMPOTENCY_SETTINGS, inFlightTimeoutSeconds: e.IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS },
    sandbox: { enabled: e.SANDBOX_ENABLED, resetIntervalHours: e.SANDBOX_RESET_INTERVAL_HOURS },
    rateLimits: { defaultPerMinute: e.RATE_LIMIT_PER_MINUTE },
    jobs: { workerConcurrency: e.JOB_WORKER_CONCURRENCY, heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS, staleSeconds: e.JOB_STALE_SECONDS },
    languageModel,
    webhooks: { serviceKey: e.SERVICE_ENCRYPTION_KEY, allowList: e.WEBHOOK_ALLOWED_HOSTS, backoffBaseMs: e.WEBHOOK_BACKOFF_BASE_MS },
    sso: { allowList: e.SSO_ALLOWED_HOSTS, publicSignup: e.SSO_PUBLIC_SIGNUP },
    observability: { metricsToken: e.METRICS_TOKEN, otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT },
    search: searchSettings(e),
    monitoring: {
      allowList: e.SITE_ALLOWED_HOSTS,
      maxPages: e.SITE_CRAWL_MAX_PAGES,
      maxPageBytes: e.SITE_CRAWL_MAX_PAGE_BYTES,
      timeoutMs: e.SITE_CRAWL_TIMEOUT_MS,
      hostConcurrency: e.SITE_CRAWL_HOST_CONCURRENCY,
      delayMs: e.SITE_CRAWL_DELAY_MS,
      userAgent: e.SITE_CRAWL_USER_AGENT,
      scanConcurrency: e.SITE_SCAN_CONCURRENCY,
      pollMs: e.SITE_SCAN_POLL_MS,
      // A path with no Chromium makes render scans fail with a clear error; the crawl never needs it.
      chromiumPath: e.CHROMIUM_PATH,
      renderMaxPages: e.SITE_RENDER_MAX_PAGES,
    },
    publishing: {
      allowList: e.SITE_ALLOWED_HOSTS,
      timeoutMs: e.WORDPRESS_TIMEOUT_MS,
      maxResponseBytes: e.WORDPRESS_MAX_RESPONSE_BYTES,
      maxAttempts: e.WORDPRESS_MAX_ATTEMPTS,
    },
  }
}

/** A provider is on when its credentials are set; half a DataForSEO login is a mistake worth stopping for. */
function searchSettings(e: z.infer<typeof Env>): SearchProviderSettings {
  if ((e.DATAFORSEO_LOGIN === undefined) !== (e.DATAFORSEO_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD: set both or neither')
  }
  return {
    dataforseo:
      e.DATAFORSEO_LOGIN && e.DATAFORSEO_PASSWORD
        ? { login: e.DATAFORSEO_LOGIN, password: e.DATAFORSEO_PASSWORD, baseUrl: e.DATAFORSEO_BASE_URL.replace(/\/+$/, '') }
        : null,
    serpapi: e.SERPAPI_KEY ? { apiKey: e.SERPAPI_KEY, baseUrl: e.SERPAPI_BASE_URL.replace(/\/+$/, '') } : null,
    gsc: { baseUrl: e.GSC_BASE_URL, tokenUrl: e.GSC_TOKEN_URL },
    timeoutMs: e.SEARCH_PROVIDER_TIMEOUT_MS,
    maxAttempts: e.SEARCH_PROVIDER_MAX_ATTEMPTS,
    backoffBaseMs: e.SEARCH_PROVIDER_BACKOFF_BASE_MS,
    requestsPerSecond: e.SEARCH_PROVIDER_REQUESTS_PER_SECOND,
    rankConcurrency: e.RANK_CHECK_CONCURRENCY,
    metricsMaxAgeDays: e.KEYWORD_METRICS_MAX_AGE_DAYS,
    pollMs: e.SEARCH_POLL_MS,
  }
}

/** An engine is enabled by its API key; without one the server agent leaves its runs to other agents. */
function engineSettings(e: z.infer<typeof Env>): AeoProcessorSettings['engines'] {
  const engines: { -readonly [K in keyof AeoProcessorSettings['engines']]: EngineSettings } = {}
  if (e.ANTHROPIC_API_KEY) engines.claude = { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL, model: e.ANTHROPIC_MODEL }
  if (e.OPENAI_API_KEY) engines.openai = { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, model: e.OPENAI_MODEL }
  if (e.GEMINI_API_KEY) engines.gemini = { apiKey: e.GEMINI_API_KEY, baseUrl: e.GEMINI_BASE_URL, model: e.GEMINI_MODEL }
  return engines
}

/** The job writer: a provider is only used when asked for by name, and then its API key is required. */
function languageModelSettings(e: z.infer<typeof Env>): LanguageModelSettings {
  const provider = e.LANGUAGE_MODEL_PROVIDER
  if (provider === 'builtin') return { provider }
  const [prefix, apiKey, baseUrl, model] =
    provider === 'anthropic'
      ? (['ANTHROPIC', e.ANTHROPIC_API_KEY, e.ANTHROPIC_BASE_URL, e.ANTHROPIC_MODEL] as const)
      : (['OPENAI', e.OPENAI_API_KEY, e.OPENAI_BASE_URL, e.OPENAI_MODEL] as const)
  if (!apiKey) throw new ConfigError(`Invalid configuration:\n  LANGUAGE_MODEL_PROVIDER: ${provider} needs ${prefix}_API_KEY`)
  return { provider, settings: { apiKey, baseUrl, model: e.LANGUAGE_MODEL_MODEL ?? model } }
}
