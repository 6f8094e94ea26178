import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { baseUrlOf, bearerChallenge } from './auth/bearer-challenge.js'
import { InsufficientScopeError } from './caller.js'
import { registerPublicDocs } from './docs/routes.js'
import type { PublicDocsSettings } from './docs/context.js'
import { ApiError, envelope, toApiError } from './errors.js'
import { RETRY_AFTER_SECONDS } from './platform/retry-later.js'
import { dbRoutes } from './routes/db.js'
import { eventRoutes } from './routes/events.js'
import { exportRoutes } from './routes/exports.js'
import { installRateLimits, isApiV1 } from './platform/rate-limit.js'
import { errorBox, html, sendPage } from './people/html.js'
import { fileRoutes, type FileRouteDeps } from './routes/files.js'
import { healthRoutes, type HealthDeps } from './routes/health.js'
import { jobRoutes } from './routes/jobs.js'
import { installMetrics, metricsRoutes } from './routes/metrics.js'
import { installRequestTracing } from './platform/request-tracing.js'
import { mcpRoutes } from './mcp/route.js'
import { peopleRouteGroup, signInPagesDepsOf } from './people/routes.js'
import { ssoPagesDepsOf } from './sso/pages-deps.js'
import { ssoRouteGroup } from './sso/routes.js'
import { samlRouteGroup } from './saml/routes.js'
import { oauthRoutes } from './routes/oauth.js'
import type { OAuthSignIn } from './routes/oauth-authorize.js'
import { csrfToken, csrfValid, CSRF_FIELD } from './people/csrf.js'
import { signedInMember } from './people/session.js'
import type { PeopleSettings } from './people/settings.js'
import { addOnSendStep } from './platform/on-send-steps.js'
import { registerIdempotency, type IdempotencyDeps } from './platform/idempotency.js'
import { installRouteCatalogue, serveGroup, type RouteGroup } from './platform/route.js'
import { parseJsonBody } from './platform/json-body.js'
import { answerClientError, answerFrameworkError } from './platform/protocol-errors.js'
import { registerWritesSwitch, type WritesSwitchDeps } from './platform/writes-switch.js'
import { rpcRoutes, type RpcRouteDeps } from './routes/rpc.js'
import { sdkRoutes } from './sdk/routes.js'
import { API_VERSION } from './version.js'

export interface AppDeps extends RpcRouteDeps, HealthDeps, IdempotencyDeps, WritesSwitchDeps, Pick<FileRouteDeps, 'blobs'> {
  readonly logger: Logger
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number
  /** Where the public documents say the service is, and its security contact. */
  readonly publicDocs?: PublicDocsSettings
  /** The job kinds this service runs (ops wires the processors' handler map); none when absent. */
  readonly jobKinds?: ReadonlySet<string>
  /** METRICS_TOKEN: the bearer token GET /metrics requires; without it only loopback scrapers are answered. */
  readonly metricsToken?: string | undefined
  /** True when ops/tracing.ts registered an OpenTelemetry SDK: every request then gets a server span. */
  readonly tracing?: boolean
}

/** The consent page's view of sign-in (read-api/people): the member of the session cookie, and the forms' CSRF token. */
function oauthSignInOf(people: PeopleSettings | undefined): OAuthSignIn | undefined {
  if (!people) return undefined
  return {
    signedInMember,
    csrfField: (request, reply) => ({ name: CSRF_FIELD, value: csrfToken(request, reply, people) }),
    csrfValid: (request, form) => csrfValid(request, people, form),
  }
}

/**
 * Serves a group its settings switch on; one they leave off (the sign-in pages without a service key) is
 * listed all the same, so the OpenAPI document shows it, marked as not served by this app.
 */
async function serveConfigured<D>(app: FastifyInstance, group: RouteGroup<D>, deps: D | undefined): Promise<void> {
  if (deps === undefined) app.routeCatalogue?.push(...group.routes)
  else await serveGroup(app, group, deps)
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Maps fastify's own errors (body parsing, limits) to the error registry. */
function fromFastify(error: FastifyError, bodyLimit: number): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('body_too_large', `the limit is ${bodyLimit} bytes`)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', error.message)
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_json', error.message)
    default:
      return null
  }
}

/** Builds the HTTP app (not listening), so tests can inject() and the CLI can listen. */
/** A browser navigating or posting a form (not an API client): outside /api/v1 and asking for HTML. */
const wantsPage = (request: FastifyRequest) => !isApiV1(request.url) && /\btext\/html\b/.test(request.headers.accept ?? '')

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.bodyLimit,
    requestIdHeader: false,
    // One name for it everywhere: the X-Request-Id answered, the events' metadata.request_id, the log field.
    requestIdLogLabel: 'request_id',
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    // Requests refused before any route runs get the error envelope too (platform/protocol-errors.ts).
    clientErrorHandler: (error, socket) => answerClientError(deps.logger as FastifyBaseLogger, error, socket),
    frameworkErrors: answerFrameworkError,
  })

  // First of all hooks, so everything a request does runs inside its span.
  if (deps.tracing) installRequestTracing(app, deps.registry)

  // JSON bodies only (anything else is 415): an empty body is an empty parameter object; malformed JSON, JSON
  // nested too deep and refused text are coded 400s (platform/json-body.ts).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')))
    } catch (error) {
      done(error as ApiError, undefined)
    }
  })

  // Every response's headers are set by one onSend hook (platform/on-send-steps.ts); this step runs first.
  addOnSendStep(app, (request, reply) => {
    reply.header('X-Request-Id', request.id)
    if (request.url.startsWith('/api/')) reply.header('X-Service-API-Version', API_VERSION)
  })

  installRateLimits(app, { db: deps.db, read: deps.read, registry: deps.registry, rateLimits: deps.settings.rateLimits })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = fromFastify(error, deps.bodyLimit) ?? toApiError(error)
    // An unreachable database is logged once per outage by the outage watch, not once per request.
    if (apiError.status >= 500 && apiError.code !== 'store_unavailable') request.log.error({ err: error }, 'request failed')
    const retryAfter = RETRY_AFTER_SECONDS[apiError.code]
    if (retryAfter !== undefined && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(retryAfter))
    // RFC 6750 + RFC 9728: a 401 names the scheme and where the resource metadata is, and says whether a
    // presented token was refused; a 403 insufficient_scope names the scope to re-consent for.
    const baseUrl = () => baseUrlOf(request, deps.publicDocs?.baseUrl)
    if (apiError.status === 401) {
      reply.header('WWW-Authenticate', bearerChallenge(baseUrl(), request.headers.authorization ? { error: 'invalid_token' } : {}))
    } else if (apiError instanceof InsufficientScopeError) {
      reply.header('WWW-Authenticate', bearerChallenge(baseUrl(), { error: 'insufficient_scope', scope: apiError.scope }))
    }
    // A browser page refused for the address's rate limit (the sign-in and SSO forms) gets a page, not JSON.
    if (apiError.code === 'rate_limited' && wantsPage(request)) {
      return sendPage(
        reply,
        429,
        'Too many attempts',
        html`${errorBox('Too many sign-in attempts from your network in the last minute. Wait a minute and try again.', 'rate_limited')}`,
      )
    }
    return reply.code(apiError.status).send(envelope(apiError, request.id))
  })
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(envelope(new ApiError('route_not_found', `${request.method} ${request.url.split('?')[0]}`), request.id))
  })

  // API platform: Idempotency-Key for routes that opt in, and the writes switch (before the routes).
  // What signedInMember(request) (read-api/people/session.ts) needs, on every route of the app.
  app.decorate('peopleSessions', { read: deps.read, clock: deps.write.clock, people: deps.settings.people })
  // The clock OAuth access tokens expire by (read-api/auth/request-caller.ts).
  app.decorate('serviceClock', deps.write.clock)
  registerIdempotency(app, deps)
  registerWritesSwitch(app, deps)
  // The root hook that counts every response (so before the routes); GET /metrics serves what it counts.
  const metrics = installMetrics(app, { read: deps.read, db: deps.db, store: deps.write.store, registry: deps.registry })
  installRouteCatalogue(app)
  await serveGroup(app, healthRoutes, deps)
  await serveGroup(app, metricsRoutes, { metrics, metricsToken: deps.metricsToken })
  await app.register(async (scope) => rpcRoutes(scope, deps))
  await serveGroup(app, fileRoutes, deps)
  await serveGroup(app, exportRoutes, deps)
  await serveGroup(app, jobRoutes, { ...deps, jobKinds: deps.jobKinds ?? new Set() })
  await serveGroup(app, dbRoutes, deps)
  await serveGroup(app, eventRoutes, deps)
  await serveGroup(app, sdkRoutes, deps)
  await serveGroup(app, mcpRoutes, deps)
  // Sign-in pages (read-api/people/routes.ts).
  await serveConfigured(app, peopleRouteGroup, signInPagesDepsOf(deps))
  // Single sign-on: /auth/oidc/<provider>, its callback and /login/sso (read-api/sso/routes.ts); SAML 2.0:
  // /saml/<key>/metadata, /login and /acs (read-api/saml/routes.ts). One cache of OIDC issuers for the app.
  const sso = ssoPagesDepsOf(deps)
  await serveConfigured(app, ssoRouteGroup, sso)
  await serveConfigured(app, samlRouteGroup, sso)
  // The OAuth 2.0 authorization server (read-api/routes/oauth.ts).
  await app.register(async (scope) => oauthRoutes(scope, { ...deps, oauthSignIn: oauthSignInOf(deps.settings.people) }))
  await registerPublicDocs(app, deps)
  return app
}
