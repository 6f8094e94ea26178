import { WebhookEnvelope, PUBLIC_EVENTS } from '../../domain/api-platform/public-events.js'
import { ERRORS, type ErrorCode } from '../errors.js'
import { defaultLimitOf, type RegisteredRpc } from '../registry.js'
import { API_VERSION } from '../version.js'
import type { DocsContext } from './context.js'
import { jsonSchemaOf, ORG_ID_DESCRIPTION, paramsSchema, resultSchema } from './schema.js'
import { WORKFLOWS } from './workflows.js'
import { deprecationOf } from './deprecation.js'
import { routeOperation } from './route-operation.js'

type Operation = Record<string, any>

/** The request id the error examples show (a made-up one is a UUID; a caller's own X-Request-Id is echoed). */
const EXAMPLE_REQUEST_ID = '5f0c6d0e-8a7b-4c21-9a57-3c1d2e4f6a80'

/** Error statuses, each a reusable response listing the registry's codes for it. */
const statusesOf = (): number[] => [...new Set<number>(Object.values(ERRORS).map((e) => e.status))].sort((a, b) => a - b)
const codesWith = (status: number) => (Object.keys(ERRORS) as ErrorCode[]).filter((code) => ERRORS[code].status === status)
const errorRef = (status: number) => ({ $ref: `#/components/responses/Error${status}` })

/** Error responses by status: each references the shared response listing the registry's codes for it. */
function rpcErrorResponses(statuses: number[]): Record<string, unknown> {
  return Object.fromEntries(statuses.map((status) => [String(status), errorRef(status)]))
}

function rpcOperation(rpc: RegisteredRpc, statuses: number[]): Operation {
  const d = rpc.definition
  const notes = [
    `Access: **${d.access}** (needs the \`${d.access}\` scope).`,
    d.orgScoped ? 'Organization-scoped: organization keys get `org_id` injected; platform keys pass it.' : 'Not organization-scoped.',
    d.platformOnly ? 'Platform (partner) keys only.' : '',
    d.paginated
      ? `Paginated: \`limit\` 1..${d.paginated.maxLimit}, \`offset\` ≥ 0; a larger limit is refused with 400 validation_failed.`
      : '',
  ].filter(Boolean)
  const deprecation = deprecationOf(rpc)
  // Read defensively: a definition built before examples were required has none.
  const example = (d as { example?: { params?: unknown; result?: unknown } }).example
  const params = paramsSchema(rpc)
  if (params.properties?.org_id && !params.properties.org_id.description) params.properties.org_id.description = ORG_ID_DESCRIPTION
  const operation: Operation = {
    operationId: d.name,
    summary: d.summary.length > 120 ? `${d.summary.slice(0, 117).replace(/\s+\S*$/, '')}…` : d.summary,
    description: `${d.summary}\n\n${notes.join(' ')}`,
    tags: [d.domain],
    security: [{ bearerAuth: [] }, { oauth2: [d.access] }],
    requestBody: {
      required: false,
      description: 'The keyword arguments, as a JSON object (an empty body is {}).',
      content: { 'application/json': { schema: params, ...(example?.params !== undefined ? { example: example.params } : {}) } },
    },
    responses: {
      '200': {
        description: 'The result.',
        headers: {
          'X-Service-API-Version': { $ref: '#/components/headers/X-Service-API-Version' },
          ...(deprecation
            ? {
                Deprecation: { $ref: '#/components/headers/Deprecation' },
                Sunset: { $ref: '#/components/headers/Sunset' },
                Link: { $ref: '#/components/headers/Link' },
              }
            : {}),
        },
        content: {
          'application/json': {
            schema: { type: 'object', properties: { result: resultSchema(rpc) }, required: ['result'], additionalProperties: false },
            ...(example?.result !== undefined ? { example: { result: example.result } } : {}),
          },
        },
      },
      ...rpcErrorResponses(statuses),
    },
  }
  if (d.paginated) operation['x-pagination'] = { maxLimit: d.paginated.maxLimit, defaultLimit: defaultLimitOf(d.paginated) }
  if (deprecation) {
    operation.deprecated = true
    operation['x-sunset'] = deprecation.sunset
    if (deprecation.replacement) operation['x-replacement'] = deprecation.replacement
    operation.description += `\n\n**Deprecated** since ${deprecation.since}; sunset ${deprecation.sunset}.${deprecation.replacement ? ` Use \`${deprecation.replacement}\` instead.` : ''}`
  }
  return operation
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  'org-admin': 'Organizations, API keys and organization settings.',
  clients: "An agency's clients, their services, locations and settings.",
  history: 'History and activity read from the event log.',
  'ai-visibility': 'AI Visibility: questions, cadence, runs, captures, tracker items, summary and reports.',
  keywords: "A client's tracked search keywords (keyword_generation adds them in bulk).",
  'ad-copy': 'Ad copy sets proposed by ad_copy jobs: ad groups within Google Ads limits, approval.',
  jobs: 'Background jobs.',
  files: 'Generated files referenced by results.',
  exports: 'Organization export archives.',
  db: 'Generic read-model table reads.',
  mcp: 'The Model Context Protocol server.',
  oauth: 'OAuth 2.0 for third-party apps and MCP clients (authorization code + PKCE).',
  'sign-in': 'Browser pages for members: password sign-in, invites, password reset, single sign-on (OIDC and SAML) and the account page.',
  meta: 'Health, inventory and the public documents.',
}

/**
 * GET /api/v1/openapi.json: OpenAPI 3.1, generated from the RPC registry and the error registry at request
 * time. Specified endpoints this build does not serve yet are kept (so clients see the whole contract) but
 * marked `x-available: false` and "Not yet served" — decided by asking the running app for the route.
 */
export function openApiDocument(ctx: DocsContext): Record<string, unknown> {
  const statuses = statusesOf()
  const rpcStatuses = statuses
  const anyDeprecated = ctx.registry.all().some((rpc) => rpc.definition.deprecated !== undefined)
  const paths: Record<string, Record<string, Operation>> = {}
  const rpcs = ctx.registry.all().sort((a, b) => a.definition.name.localeCompare(b.definition.name))
  for (const rpc of rpcs) {
    paths[`/api/v1/rpc/${rpc.definition.name}`] = {
      post: { ...rpcOperation(rpc, rpcStatuses), parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }] },
    }
  }
  const planned: string[] = []
  for (const declared of ctx.routes) {
    const { path, method, operation } = routeOperation(declared)
    const served = declared.handler !== undefined && ctx.isServed(declared.method as 'GET' | 'POST', declared.path)
    const errors = (declared.auth === 'public' ? [404, 429] : [401, 403, 404, 429]).filter((status) => statuses.includes(status))
    operation.responses = { ...rpcErrorResponses(errors), ...operation.responses }
    if (!served) {
      planned.push(`${declared.method} ${path}`)
      operation['x-available'] = false
      // A declaration without a handler is specified but not built yet; one with a handler that this app does not
      // serve belongs to a group its configuration leaves off (sign-in pages without the service key, say).
      const why =
        declared.handler === undefined
          ? '**Not yet served by this version**: specified, and answers 404 route_not_found until it ships.'
          : '**Not served by this instance**: its configuration leaves it off (see the area reference), so it answers 404 route_not_found.'
      operation.description = `${why} ${operation.description ?? ''}`.trim()
    }
    paths[path] = { ...paths[path], [method]: operation }
  }

  const errorResponses = Object.fromEntries(
    statuses.map((status) => [
      `Error${status}`,
      {
        description: `Error envelope. Codes: ${codesWith(status).join(', ')}.`,
        headers: { 'X-Service-API-Version': { $ref: '#/components/headers/X-Service-API-Version' } },
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            examples: Object.fromEntries(
              codesWith(status).map((code) => [
                code,
                {
                  summary: ERRORS[code].message,
                  value: {
                    error: ERRORS[code].message,
                    code,
                    ...(ERRORS[code].hint ? { hint: ERRORS[code].hint } : {}),
                    request_id: EXAMPLE_REQUEST_ID,
                  },
                },
              ]),
            ),
          },
        },
      },
    ]),
  )

  const webhooks = Object.fromEntries(
    PUBLIC_EVENTS.map((event) => [
      event.name,
      {
        post: {
          operationId: `webhook_${event.name.replace(/\./g, '_')}`,
          summary: event.emittedWhen,
          description: `Delivered to your webhook URL when: ${event.emittedWhen}. Verify X-Service-Signature before trusting the body (see /developers.md#webhooks).`,
          tags: ['webhooks'],
          security: [],
          parameters: [
            { name: 'X-Service-Event', in: 'header', required: true, description: 'The event name', schema: { const: event.name } },
            { name: 'X-Service-Delivery', in: 'header', required: true, description: 'The delivery id', schema: { type: 'string' } },
            { name: 'X-Service-Timestamp', in: 'header', required: true, description: 'Unix seconds', schema: { type: 'string' } },
            {
              name: 'X-Service-Signature',
              in: 'header',
              required: true,
              description: 't=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>; reject when |now - t| > 300',
              schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    { $ref: '#/components/schemas/WebhookEnvelope' },
                    { type: 'object', properties: { event: { const: event.name }, data: jsonSchemaOf(event.data, 'output') } },
                  ],
                },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx within 10 seconds acknowledges; anything else is retried (8 attempts, 1 to 64 minutes).' },
          },
        },
      },
    ]),
  )

  const tags = [...new Set([...rpcs.map((r) => r.definition.domain), ...Object.keys(TAG_DESCRIPTIONS), 'webhooks'])].map((name) => ({
    name,
    description: name === 'webhooks' ? 'Signed event deliveries to your URL.' : (TAG_DESCRIPTIONS[name] ?? `RPC methods of ${name}.`),
  }))

  return {
    openapi: '3.1.0',
    info: {
      title: 'RankRelay API',
      version: API_VERSION,
      summary: 'Search tracking and AI Visibility for agencies and their AI agents.',
      description: [
        'Every RPC is `POST /api/v1/rpc/<method>` with a JSON body of keyword arguments, answering `200 {"result": …}`; errors use the envelope `{error, code, detail?, hint?, request_id}`.',
        'Generated from the service registry at request time: a method listed here is callable, and nothing callable is missing.',
        `Full guide: ${ctx.baseUrl}/developers.md. Agents: ${ctx.baseUrl}/llms.txt.`,
        planned.length > 0
          ? `Specified but not served here (marked x-available: false: not yet built, or left off by configuration): ${planned.join(', ')}.`
          : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
      contact: { name: 'RankRelay', url: `${ctx.baseUrl}/developers.md` },
      // The LICENSE file at the repository root; the SPDX identifier is what package.json and the SDK say too.
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: ctx.baseUrl, description: 'This service' }],
    security: [{ bearerAuth: [] }, { oauth2: [] }],
    tags,
    paths,
    webhooks,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'rrk_ API key or rro_ OAuth access token',
          description: 'Authorization: Bearer <rrk_ key or rro_ token>. Scopes read, write, jobs.',
        },
        oauth2: {
          type: 'oauth2',
          description: 'Authorization code with PKCE (S256) only; dynamic client registration at /oauth/register. Refresh tokens rotate.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${ctx.baseUrl}/oauth/authorize`,
              tokenUrl: `${ctx.baseUrl}/oauth/token`,
              refreshUrl: `${ctx.baseUrl}/oauth/token`,
              scopes: {
                read: 'Read clients, keywords, rankings, action items, AI Visibility data and reports',
                write: 'Change data: add clients and questions, update items, enrol AI Visibility, register webhooks',
                jobs: 'Run background jobs: audits, strategist, content, exports',
                offline_access: 'Issue a refresh token',
              },
            },
          },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            error: { type: 'string', description: 'Human-readable message' },
            code: { type: 'string', enum: Object.keys(ERRORS), description: 'Stable machine code' },
            detail: { type: 'string', description: 'Extra detail' },
            hint: { type: 'string', description: 'What an agent should try next' },
            request_id: {
              type: 'string',
              description: "The request's id, as in its X-Request-Id header: quote it when reporting a problem",
            },
          },
          required: ['error', 'code', 'request_id'],
        },
        WebhookEnvelope: jsonSchemaOf(WebhookEnvelope, 'output'),
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'At most 200 characters. The first response is stored 24 hours and replayed with Idempotency-Replayed: true.',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
      headers: {
        'X-Service-API-Version': { description: 'The API version that answered', schema: { type: 'string' } },
        // Only while something is deprecated: an unused component is noise (and a lint warning).
        ...(anyDeprecated
          ? {
              Deprecation: { description: 'RFC 9745: @<unix seconds> when the method was deprecated', schema: { type: 'string' } },
              Sunset: { description: 'RFC 8594: the HTTP-date after which the method may be removed', schema: { type: 'string' } },
              Link: {
                description: 'rel="deprecation" (the changelog) and rel="successor-version" (the replacement)',
                schema: { type: 'string' },
              },
            }
          : {}),
      },
      responses: errorResponses,
    },
    'x-workflows': WORKFLOWS,
  }
}
