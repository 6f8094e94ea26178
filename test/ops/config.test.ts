/**
 * ops/config.ts: every setting from the environment, validated once. A bad value is a ConfigError that
 * names the variable; empty strings count as unset.
 */
import path from 'node:path'
import t from 'tap'
import { DEFAULT_AEO_SETTINGS } from '../../commands/aeo/settings.js'
import { ConfigError, loadConfig } from '../../ops/config.js'
import { DEFAULT_IDEMPOTENCY_SETTINGS } from '../../read-api/platform/idempotency.js'
import { DEFAULT_AEO_PROCESSOR_SETTINGS, DEFAULT_MODELS } from '../../processors/aeo/settings.js'
import { DEFAULT_JOB_SETTINGS } from '../../processors/jobs/settings.js'
import { parseServiceKey } from '../../commands/secrets/service-key.js'
import { EMPTY_ALLOW_LIST, parseAllowList } from '../../domain/webhooks/url-policy.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS } from '../../processors/search/settings.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'

const KEY = `rrk_${'a1B2c3D4e5'.repeat(4)}`
const SERVICE_KEY = Buffer.alloc(32, 3).toString('base64')

t.test('defaults: an empty environment runs the embedded default on 127.0.0.1:8080', async (t) => {
  const config = loadConfig({})
  t.same(config, {
    port: 8080,
    host: '127.0.0.1',
    baseUrl: 'http://127.0.0.1:8080',
    baseUrlGiven: false,
    dataDir: path.resolve('./.data'),
    databaseUrl: undefined,
    eventStoreUrl: undefined,
    logLevel: 'info',
    platformKey: undefined,
    readYourWritesTimeoutMs: 5000,
    bodyLimit: 1024 * 1024,
    aeo: DEFAULT_AEO_SETTINGS,
    aeoProcessors: DEFAULT_AEO_PROCESSOR_SETTINGS,
    writesEnabled: undefined,
    idempotency: DEFAULT_IDEMPOTENCY_SETTINGS,
    sandbox: { enabled: false, resetIntervalHours: 24 },
    rateLimits: { defaultPerMinute: 600 },
    jobs: DEFAULT_JOB_SETTINGS,
    languageModel: { provider: 'builtin' },
    webhooks: { serviceKey: undefined, allowList: EMPTY_ALLOW_LIST, backoffBaseMs: 60_000 },
    sso: { allowList: EMPTY_ALLOW_LIST, publicSignup: false },
    observability: { metricsToken: undefined, otlpEndpoint: undefined },
    search: DEFAULT_SEARCH_PROVIDER_SETTINGS,
    monitoring: DEFAULT_MONITORING_SETTINGS,
    publishing: { allowList: EMPTY_ALLOW_LIST, timeoutMs: 15_000, maxResponseBytes: 10 * 1024 * 1024, maxAttempts: 3 },
  })
  t.ok(path.isAbsolute(config.dataDir), 'DATA_DIR is resolved to an absolute path')
})

t.test('unrelated variables are ignored', async (t) => {
  t.same(loadConfig({ PATH: '/usr/bin', HOME: '/root', SOMETHING_ELSE: 'x' }), loadConfig({}))
})

t.test('every setting is read and typed', async (t) => {
  const config = loadConfig({
    PORT: '9090',
    HOST: '10.1.2.3',
    BASE_URL: 'https://api.example.com',
    DATA_DIR: '/var/lib/rankrelay',
    DATABASE_URL: 'postgresql://rr:secret@db.internal:5432/rankrelay',
    EVENTSTORE_URL: 'esdb+discover://es.internal:2113?tls=false',
    LOG_LEVEL: 'debug',
    PLATFORM_KEY: KEY,
    READ_YOUR_WRITES_TIMEOUT_MS: '250',
    BODY_LIMIT_BYTES: '2048',
    RATE_LIMIT_PER_MINUTE: '120',
    JOB_WORKER_CONCURRENCY: '3',
    JOB_HEARTBEAT_SECONDS: '2',
    JOB_STALE_SECONDS: '5',
    SERVICE_ENCRYPTION_KEY: SERVICE_KEY,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, receiver.test,10.0.0.0/8',
    WEBHOOK_BACKOFF_BASE_MS: '50',
    SSO_ALLOWED_HOSTS: '127.0.0.1,idp.internal',
    SSO_PUBLIC_SIGNUP: 'true',
    METRICS_TOKEN: 'scrape-token-0123456789abcdef',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
    DATAFORSEO_LOGIN: 'agency@example.com',
    DATAFORSEO_PASSWORD: 'dfs-password',
    DATAFORSEO_BASE_URL: 'http://127.0.0.1:9001/',
    SERPAPI_KEY: 'serp-key',
    SERPAPI_BASE_URL: 'http://127.0.0.1:9002',
    GSC_BASE_URL: 'http://127.0.0.1:9003/',
    GSC_TOKEN_URL: 'http://127.0.0.1:9003/token',
    SEARCH_PROVIDER_TIMEOUT_MS: '5000',
    SEARCH_PROVIDER_MAX_ATTEMPTS: '2',
    SEARCH_PROVIDER_BACKOFF_BASE_MS: '10',
    SEARCH_PROVIDER_REQUESTS_PER_SECOND: '2.5',
    RANK_CHECK_CONCURRENCY: '8',
    KEYWORD_METRICS_MAX_AGE_DAYS: '14',
    SEARCH_POLL_MS: '500',
    SITE_ALLOWED_HOSTS: '127.0.0.1,intranet.example',
    SITE_CRAWL_MAX_PAGES: '50',
    SITE_CRAWL_MAX_PAGE_BYTES: '65536',
    SITE_CRAWL_TIMEOUT_MS: '1500',
    SITE_CRAWL_HOST_CONCURRENCY: '4',
    SITE_CRAWL_DELAY_MS: '0',
    SITE_CRAWL_USER_AGENT: 'AgencyBot/2.0',
    SITE_SCAN_CONCURRENCY: '3',
    SITE_SCAN_POLL_MS: '250',
    CHROMIUM_PATH: '/opt/chromium/chrome',
    SITE_RENDER_MAX_PAGES: '5',
    WORDPRESS_TIMEOUT_MS: '4000',
    WORDPRESS_MAX_RESPONSE_BYTES: '1048576',
    WORDPRESS_MAX_ATTEMPTS: '5',
  })
  t.same(config, {
    port: 9090,
    host: '10.1.2.3',
    baseUrl: 'https://api.example.com',
    baseUrlGiven: true,
    dataDir: '/var/lib/rankrelay',
    databaseUrl: 'postgresql://rr:secret@db.internal:5432/rankrelay',
    eventStoreUrl: 'esdb+discover://es.internal:2113?tls=false',
    logLevel: 'debug',
    platformKey: KEY,
    readYourWritesTimeoutMs: 250,
    bodyLimit: 2048,
    aeo: DEFAULT_AEO_SETTINGS,
    aeoProcessors: DEFAULT_AEO_PROCESSOR_SETTINGS,
    writesEnabled: undefined,
    idempotency: DEFAULT_IDEMPOTENCY_SETTINGS,
    sandbox: { enabled: false, resetIntervalHours: 24 },
    rateLimits: { defaultPerMinute: 120 },
    jobs: { workerConcurrency: 3, heartbeatSeconds: 2, staleSeconds: 5 },
    languageModel: { provider: 'builtin' },
    webhooks: {
      serviceKey: parseServiceKey(SERVICE_KEY),
      allowList: parseAllowList('127.0.0.1,receiver.test,10.0.0.0/8'),
      backoffBaseMs: 50,
    },
    sso: { allowList: parseAllowList('127.0.0.1,idp.internal'), publicSignup: true },
    observability: { metricsToken: 'scrape-token-0123456789abcdef', otlpEndpoint: 'http://otel-collector:4318' },
    search: {
      dataforseo: { login: 'agency@example.com', password: 'dfs-password', baseUrl: 'http://127.0.0.1:9001' },
      serpapi: { apiKey: 'serp-key', baseUrl: 'http://127.0.0.1:9002' },
      gsc: { baseUrl: 'http://127.0.0.1:9003/', tokenUrl: 'http://127.0.0.1:9003/token' },
      timeoutMs: 5000,
      maxAttempts: 2,
      backoffBaseMs: 10,
      requestsPerSecond: 2.5,
      rankConcurrency: 8,
      metricsMaxAgeDays: 14,
      pollMs: 500,
    },
    monitoring: {
      allowList: parseAllowList('127.0.0.1,intranet.example'),
      maxPages: 50,
      maxPageBytes: 65536,
      timeoutMs: 1500,
      hostConcurrency: 4,
      delayMs: 0,
      userAgent: 'AgencyBot/2.0',
      scanConcurrency: 3,
      pollMs: 250,
      chromiumPath: '/opt/chromium/chrome',
      renderMaxPages: 5,
    },
    publishing: { allowList: parseAllowList('127.0.0.1,intranet.example'), timeoutMs: 4000, maxResponseBytes: 1048576, maxAttempts: 5 },
  })
  t.throws(
    () => loadConfig({ DATAFORSEO_LOGIN: 'only-half' }),
    /DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD/,
    'half a DataForSEO login is refused',
  )
  t.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN/, 'a guessable metrics token is refused')
  t.throws(
    () => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' }),
    /OTEL_EXPORTER_OTLP_ENDPOINT/,
    'the collector needs an http(s) URL',
  )
  t.equal(loadConfig({ DATABASE_URL: 'postgres://u:p@h/d' }).databaseUrl, 'postgres://u:p@h/d', 'postgres:// is accepted too')
  t.equal(loadConfig({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' }).eventStoreUrl, 'esdb://localhost:2113?tls=false')
  t.equal(loadConfig({ PORT: '0' }).port, 0, 'PORT=0 (any free port) is allowed')
  t.equal(loadConfig({ DATA_DIR: 'relative/dir' }).dataDir, path.resolve('relative/dir'), 'a relative DATA_DIR resolves against the cwd')
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
    t.equal(loadConfig({ LOG_LEVEL: level }).logLevel, level, `LOG_LEVEL=${level}`)
  }
})

t.test('AI Visibility settings: limits, and an engine enabled by its API key', async (t) => {
  const config = loadConfig({
    AEO_CLAIM_LEASE_SECONDS: '60',
    AEO_MAX_ATTEMPTS: '5',
    AEO_RETRY_BACKOFF_SECONDS: '30, 120,600',
    AEO_RECORD_RETENTION_DAYS: '30',
    AEO_AGENT_ONLINE_SECONDS: '120',
    AEO_SWEEP_INTERVAL_MS: '5000',
    AEO_AGENT_POLL_MS: '100',
    AEO_AGENT_CONCURRENCY: '2',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1',
  })
  t.same(config.aeo, {
    claimLeaseSeconds: 60,
    maxAttempts: 5,
    retryBackoffSeconds: [30, 120, 600],
    recordRetentionDays: 30,
    agentOnlineSeconds: 120,
  })
  t.same(loadConfig({}).aeo.retryBackoffSeconds, [60, 300, 1800], 'the default backoff: 1, 5, 30 minutes')
  t.throws(() => loadConfig({ AEO_RETRY_BACKOFF_SECONDS: '1m,5m' }), /AEO_RETRY_BACKOFF_SECONDS/)
  t.same(config.aeoProcessors, {
    engines: { openai: { apiKey: 'sk-test', baseUrl: 'http://127.0.0.1:9999/v1', model: DEFAULT_MODELS.openai } },
    sweepIntervalMs: 5000,
    agentPollMs: 100,
    agentConcurrency: 2,
  })
  t.throws(() => loadConfig({ AEO_MAX_ATTEMPTS: '0' }), /AEO_MAX_ATTEMPTS/)
  t.throws(() => loadConfig({ GEMINI_BASE_URL: 'not a url' }), /GEMINI_BASE_URL/)
})

t.test('LANGUAGE_MODEL_PROVIDER: the built-in writer unless a provider is named, and then its key is required', async (t) => {
  t.same(
    loadConfig({ ANTHROPIC_API_KEY: 'sk-ant' }).languageModel,
    { provider: 'builtin' },
    'an AI Visibility key alone does not send job text to a provider',
  )
  t.same(
    loadConfig({ LANGUAGE_MODEL_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' })
      .languageModel,
    {
      provider: 'anthropic',
      settings: { apiKey: 'sk-ant', baseUrl: 'http://127.0.0.1:9/', model: DEFAULT_MODELS.claude },
    },
  )
  t.same(loadConfig({ LANGUAGE_MODEL_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-oai', LANGUAGE_MODEL_MODEL: 'gpt-test' }).languageModel, {
    provider: 'openai',
    settings: { apiKey: 'sk-oai', baseUrl: undefined, model: 'gpt-test' },
  })
  t.throws(() => loadConfig({ LANGUAGE_MODEL_PROVIDER: 'openai' }), /LANGUAGE_MODEL_PROVIDER: openai needs OPENAI_API_KEY/)
  t.throws(() => loadConfig({ LANGUAGE_MODEL_PROVIDER: 'gemini' }), /LANGUAGE_MODEL_PROVIDER/)
})

t.test('API platform settings: the initial value of the writes switch and the idempotency in-flight timeout', async (t) => {
  for (const [value, expected] of [
    ['true', true],
    ['1', true],
    ['on', true],
    ['false', false],
    ['0', false],
    ['off', false],
  ] as const) {
    t.equal(loadConfig({ WRITES_ENABLED: value }).writesEnabled, expected, `WRITES_ENABLED=${value}`)
  }
  t.equal(loadConfig({}).writesEnabled, undefined, 'unset: the stored switch, or on for a new deployment')
  t.throws(() => loadConfig({ WRITES_ENABLED: 'maybe' }), /WRITES_ENABLED/)
  t.same(loadConfig({ IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: '300' }).idempotency, { ttlSeconds: 86_400, inFlightTimeoutSeconds: 300 })
  t.throws(() => loadConfig({ IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: '1' }), /IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS/)
  t.throws(
    () => loadConfig({ IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: '10', READ_YOUR_WRITES_TIMEOUT_MS: '10000' }),
    /IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS: must be longer than READ_YOUR_WRITES_TIMEOUT_MS/,
    'a key must not be taken over while its request may still be waiting for the read models',
  )
})

t.test('BASE_URL: derived from HOST and PORT unless given', async (t) => {
  t.equal(loadConfig({ PORT: '3000' }).baseUrl, 'http://127.0.0.1:3000', 'from PORT')
  t.equal(loadConfig({ HOST: 'rr.internal', PORT: '81' }).baseUrl, 'http://rr.internal:81', 'from HOST and PORT')
  t.equal(loadConfig({ HOST: '0.0.0.0', PORT: '8081' }).baseUrl, 'http://127.0.0.1:8081', 'a wildcard IPv4 host is shown as 127.0.0.1')
  t.equal(loadConfig({ HOST: '::', PORT: '8082' }).baseUrl, 'http://127.0.0.1:8082', 'a wildcard IPv6 host is shown as 127.0.0.1')
  t.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0', 'the listen host itself is kept')
  t.equal(
    loadConfig({ BASE_URL: 'https://rr.example.com', PORT: '9000' }).baseUrl,
    'https://rr.example.com',
    'BASE_URL wins over HOST/PORT',
  )
  t.equal(loadConfig({ BASE_URL: 'https://rr.example.com///' }).baseUrl, 'https://rr.example.com', 'trailing slashes are dropped')
  t.equal(
    loadConfig({ BASE_URL: 'https://example.com/rankrelay/' }).baseUrl,
    'https://example.com/rankrelay',
    'a path prefix is kept, without its slash',
  )
})

t.test('BASE_URL derived from an IPv6 HOST is a valid URL', async (t) => {
  const { baseUrl } = loadConfig({ HOST: '::1', PORT: '8080' })
  t.doesNotThrow(() => new URL(baseUrl), `${baseUrl} parses as a URL`)
  t.equal(baseUrl, 'http://[::1]:8080')
})

t.test('empty strings count as unset', async (t) => {
  const empty = Object.fromEntries(
    [
      'PORT',
      'HOST',
      'BASE_URL',
      'DATA_DIR',
      'DATABASE_URL',
      'EVENTSTORE_URL',
      'LOG_LEVEL',
      'PLATFORM_KEY',
      'READ_YOUR_WRITES_TIMEOUT_MS',
      'BODY_LIMIT_BYTES',
      'RATE_LIMIT_PER_MINUTE',
      'SERVICE_ENCRYPTION_KEY',
      'WEBHOOK_ALLOWED_HOSTS',
      'WEBHOOK_BACKOFF_BASE_MS',
      'SSO_ALLOWED_HOSTS',
      'SSO_PUBLIC_SIGNUP',
      'JOB_WORKER_CONCURRENCY',
      'JOB_HEARTBEAT_SECONDS',
      'JOB_STALE_SECONDS',
      'LANGUAGE_MODEL_PROVIDER',
      'LANGUAGE_MODEL_MODEL',
    ].map((name) => [name, '']),
  )
  t.same(loadConfig(empty), loadConfig({}), 'all empty equals none set')
  t.equal(loadConfig({ PORT: '', HOST: 'rr.internal' }).baseUrl, 'http://rr.internal:8080', 'an empty PORT takes the default')
  t.equal(loadConfig({ PLATFORM_KEY: '' }).platformKey, undefined, 'an empty PLATFORM_KEY means none (not an invalid key)')
  t.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, undefined, 'an empty DATABASE_URL means the embedded database')
  t.equal(loadConfig({ EVENTSTORE_URL: '' }).eventStoreUrl, undefined, 'an empty EVENTSTORE_URL means the PostgreSQL event store')
  t.equal(loadConfig({ BASE_URL: '', PORT: '7000' }).baseUrl, 'http://127.0.0.1:7000', 'an empty BASE_URL is derived')
  t.equal(loadConfig({ DATA_DIR: '' }).dataDir, path.resolve('./.data'), 'an empty DATA_DIR takes the default')
})

t.test('a whitespace-only PORT is not silently port 0', async (t) => {
  let port: number | undefined
  try {
    port = loadConfig({ PORT: ' ' }).port
  } catch (error) {
    t.type(error, ConfigError, 'rejected as a ConfigError')
    return
  }
  t.equal(port, 8080, 'or treated as unset')
})

t.test('invalid values are rejected with a ConfigError naming the variable', async (t) => {
  const bad: [string, string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['BASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://u:p@localhost/db'],
    ['DATABASE_URL', 'localhost:5432'],
    ['EVENTSTORE_URL', 'http://localhost:2113'],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_LEVEL', 'INFO'],
    ['PLATFORM_KEY', 'bad'],
    ['PLATFORM_KEY', 'rrk_short'],
    ['PLATFORM_KEY', `sk_${'a'.repeat(40)}`],
    ['PLATFORM_KEY', `rrk_${'a'.repeat(30)} spaces`],
    ['READ_YOUR_WRITES_TIMEOUT_MS', '-5'],
    ['READ_YOUR_WRITES_TIMEOUT_MS', '60001'],
    ['READ_YOUR_WRITES_TIMEOUT_MS', 'soon'],
    ['BODY_LIMIT_BYTES', '10'],
    ['BODY_LIMIT_BYTES', String(200 * 1024 * 1024)],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['RATE_LIMIT_PER_MINUTE', '2000000'],
    ['RATE_LIMIT_PER_MINUTE', 'many'],
    ['SERVICE_ENCRYPTION_KEY', 'short'],
    ['SERVICE_ENCRYPTION_KEY', Buffer.alloc(16, 1).toString('base64')],
    ['WEBHOOK_ALLOWED_HOSTS', '10.0.0.0/99'],
    ['WEBHOOK_ALLOWED_HOSTS', 'http://x.test'],
    ['SITE_ALLOWED_HOSTS', 'http://site.test'],
    ['SITE_CRAWL_MAX_PAGES', '0'],
    ['SITE_CRAWL_MAX_PAGE_BYTES', '10'],
    ['SITE_CRAWL_HOST_CONCURRENCY', 'lots'],
    ['SSO_ALLOWED_HOSTS', 'https://idp.test'],
    ['SSO_PUBLIC_SIGNUP', 'sometimes'],
    ['WEBHOOK_BACKOFF_BASE_MS', '0'],
    ['WEBHOOK_BACKOFF_BASE_MS', 'soon'],
  ]
  for (const [name, value] of bad) {
    const label = `${name}=${JSON.stringify(value)}`
    let caught: unknown
    try {
      loadConfig({ [name]: value })
    } catch (error) {
      caught = error
    }
    t.type(caught, ConfigError, `${label}: a ConfigError`)
    t.equal((caught as Error | undefined)?.name, 'ConfigError', `${label}: named ConfigError`)
    t.match((caught as Error | undefined)?.message ?? '', new RegExp(`^ {2}${name}: `, 'm'), `${label}: the message names ${name}`)
  }
})

t.test('a ConfigError names every bad variable at once, and only those', async (t) => {
  let caught: unknown
  try {
    loadConfig({ PORT: 'abc', PLATFORM_KEY: 'bad', HOST: 'fine.example' })
  } catch (error) {
    caught = error
  }
  t.type(caught, ConfigError)
  t.type(caught, Error)
  const message = (caught as Error).message
  t.match(message, /^Invalid configuration:\n/)
  t.match(message, /^ {2}PORT: /m)
  t.match(message, /^ {2}PLATFORM_KEY: expected an rrk_ key/m)
  t.notMatch(message, /HOST/)
  t.notMatch(message, /bad/, 'the rejected value (it may be a secret) is not echoed')
})

t.test('reads process.env by default', async (t) => {
  const saved = process.env.PORT
  t.teardown(() => {
    if (saved === undefined) delete process.env.PORT
    else process.env.PORT = saved
  })
  process.env.PORT = '6543'
  t.equal(loadConfig().port, 6543)
})
