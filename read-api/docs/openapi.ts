import { WebhookEnvelope, PUBLIC_EVENTS } from '../../domain/api-platform/public-events.js'
import { ERRORS, type ErrorCode } from '../errors.js'
import { defaultLimitOf, type RegisteredRpc } from '../registry.js'
import { API_VERSION } from '../version.js'
import type { DocsContext } from './context.js'
import { jsonSchemaOf, paramsSchema, resultSchema, type JsonSchema } from './schema.js'
import { WORKFLOWS } from './workflows.js'
import { SPECIFIED_JOB_KINDS } from '../../domain/jobs/kinds.js'
import { deprecationOf } from './deprecation.js'

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
    d.paginated ? `Paginated: \`limit\` 1..${d.paginated.maxLimit}, \`offset\` ≥ 0; a larger limit is refused with 400 validation_failed.` : '',
  ].filter(Boolean)
  const deprecation = deprecationOf(rpc)
  const operation: Operation = {
    operationId: d.name,
    summary: d.summary.length > 120 ? `${d.summary.slice(0, 117).replace(/\s+\S*$/, '')}…` : d.summary,
    description: `${d.summary}\n\n${notes.join(' ')}`,
    tags: [d.domain],
    security: [{ bearerAuth: [] }, { oauth2: [d.access] }],
    requestBody: {
      required: false,
      description: 'The keyword arguments, as a JSON object (an empty body is {}).',
      content: { 'application/json': { schema: paramsSchema(rpc) } },
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

/** A REST operation the spec defines. `route` is the fastify pattern used to tell whether this build serves it. */
interface RestOperation {
  readonly method: 'get' | 'post'
  readonly path: string
  readonly route: string
  readonly tag: string
  readonly public?: boolean
  readonly operation: Operation
}

const ID_PARAM = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'integer', minimum: 1 } })
const json = (schema: JsonSchema) => ({ 'application/json': { schema } })

const JobRecord: JsonSchema = {
  type: 'object',
  properties: {
    job_id: { type: 'integer' },
    kind: { type: 'string' },
    client_id: { type: ['integer', 'null'], description: 'Null for kinds about the organization (export_org)' },
    group_id: { type: ['integer', 'null'] },
    status: { type: 'string', enum: ['queued', 'running', 'done', 'failed', 'cancelled'] },
    status_url: { type: 'string', description: 'This record (relative to the base URL)' },
    cancel_requested: { type: 'boolean', description: 'A cancel was asked for; a running job ends cancelled at its next check' },
    attempts: { type: 'integer', description: 'Starts so far (a job interrupted by a graceful shutdown resumes with the next attempt)' },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    progress: {
      type: 'object',
      description: 'Present while running',
      properties: { done: { type: 'number' }, total: { type: 'number' }, percent: { type: 'number' }, message: { type: ['string', 'null'] } },
    },
    result: { type: 'object', description: 'Present when done. export_org: download_url and counts; prompted_edit: pages[] with edit_id' },
    error: { type: 'string', description: 'Present when failed' },
    failure_reason: { type: 'string', enum: ['error', 'watchdog', 'unavailable'], description: 'Present when failed: error (the job failed), watchdog (its worker stopped heart-beating)' },
  },
  required: ['job_id', 'kind', 'client_id', 'status', 'status_url', 'created_at'],
}

function restOperations(): RestOperation[] {
  return [
    {
      method: 'post',
      path: '/api/v1/jobs',
      route: '/api/v1/jobs',
      tag: 'jobs',
      operation: {
        operationId: 'create_job',
        summary: 'Start a background job',
        description:
          'Needs the write and jobs scopes (the sandbox key: export_org only, once per 10 minutes). One active job per client (per organization for export_org): another request answers 409 job_already_running naming the active job. Unknown kind, missing client_id or a payload failing the kind\'s schema: 400 naming the field. Accepts Idempotency-Key.',
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: {
              kind: {
                type: 'string',
                enum: [...SPECIFIED_JOB_KINDS],
                description: 'GET /api/v1/capabilities (job_kinds) lists the kinds this deployment runs; others answer 400 job_kind_unavailable.',
              },
              client_id: { type: 'integer' },
              group_id: { type: 'integer' },
              org_id: { type: 'integer' },
              meter: { type: 'boolean' },
              payload: { type: 'object' },
            },
            required: ['kind'],
          }),
        },
        responses: {
          '202': {
            description: 'Accepted.',
            content: json({ type: 'object', properties: { job_id: { type: 'integer' }, status_url: { type: 'string' } }, required: ['job_id', 'status_url'] }),
          },
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/jobs/{job_id}',
      route: '/api/v1/jobs/:job_id',
      tag: 'jobs',
      operation: {
        operationId: 'get_job',
        summary: 'A job record',
        parameters: [ID_PARAM('job_id', 'The job id')],
        responses: { '200': { description: 'The job.', content: json(JobRecord) } },
      },
    },
    {
      method: 'post',
      path: '/api/v1/jobs/{job_id}/cancel',
      route: '/api/v1/jobs/:job_id/cancel',
      tag: 'jobs',
      operation: {
        operationId: 'cancel_job',
        summary: 'Cancel a queued or running job',
        description: 'A queued job is cancelled at once (200); a running job is asked to stop (202, cancel_requested true) and ends cancelled at its next check. A terminal job answers 409 job_already_terminal.',
        parameters: [ID_PARAM('job_id', 'The job id')],
        responses: {
          '200': { description: 'The job, cancelled.', content: json(JobRecord) },
          '202': { description: 'The job, still running, with cancel_requested true.', content: json(JobRecord) },
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/files/{path}',
      route: '/api/v1/files/*',
      tag: 'files',
      operation: {
        operationId: 'get_file',
        summary: 'A generated file (filed report, snapshot)',
        description: 'The path is the one a result names (it may contain slashes). Same organization only; ETag and If-None-Match supported.',
        parameters: [{ name: 'path', in: 'path', required: true, description: 'The file path under /api/v1/files/', schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The file, with its own content type.', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
          '304': { description: 'Not modified (If-None-Match matched).' },
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/exports/{org_id}/{filename}',
      route: '/api/v1/exports/:org_id/:filename',
      tag: 'exports',
      operation: {
        operationId: 'download_export',
        summary: 'Download an organization export zip',
        description:
          'Produced by an export_org job (result.download_url; list_org_exports lists them); kept 7 days. A zip of every table of the organization as tables/<t>.json and tables/<t>.csv, the filed reports under reports/, and manifest.json (tables, row counts, sha256 per file, created_at, the log position it reflects); secrets excluded. The same organization\'s key (or a platform key) is required: another organization\'s export, an expired one and a missing one all answer 404 not_found. Served as an attachment (Content-Disposition), with Content-Length and an ETag (its sha256).',
        parameters: [
          ID_PARAM('org_id', 'The organization'),
          { name: 'filename', in: 'path', required: true, description: 'The zip file name from result.download_url', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'The zip.', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } } },
      },
    },
    {
      method: 'get',
      path: '/api/v1/events',
      route: '/api/v1/events',
      tag: 'webhooks',
      operation: {
        operationId: 'list_events',
        summary: "The organization's webhook events in order, for catching up",
        description:
          'Every webhook-visible event of the organization (and platform events such as api.deprecation), oldest first, each with exactly the body a delivery carries: the same `id` (deduplicate on it). Pass back `next_cursor` as `after` to continue; when caught up the same cursor comes back with no events. Pings are not listed. Read scope; a platform key passes org_id.',
        parameters: [
          { name: 'after', in: 'query', required: false, description: 'An opaque cursor (next_cursor of a previous answer); absent: from the oldest event', schema: { type: 'string' } },
          { name: 'limit', in: 'query', required: false, description: 'Events per page, 1 to 1000 (default 100)', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
          { name: 'org_id', in: 'query', required: false, description: 'Platform keys: the organization', schema: { type: 'integer' } },
        ],
        responses: {
          '200': {
            description: 'A page of events.',
            content: json({
              type: 'object',
              properties: {
                events: { type: 'array', items: { $ref: '#/components/schemas/WebhookEnvelope' } },
                next_cursor: { type: ['string', 'null'], description: 'Pass as after; null only when there are no events yet' },
                has_more: { type: 'boolean' },
              },
              required: ['events', 'next_cursor', 'has_more'],
            }),
          },
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/db',
      route: '/api/v1/db',
      tag: 'db',
      operation: {
        operationId: 'list_tables',
        summary: 'The readable tables, their columns, order and scoping',
        responses: { '200': { description: 'The allow-list.', content: json({ type: 'object' }) } },
      },
    },
    {
      method: 'get',
      path: '/api/v1/db/{table}',
      route: '/api/v1/db/:table',
      tag: 'db',
      operation: {
        operationId: 'read_table',
        summary: 'Generic table read',
        description:
          'Rows of an allowed read-model table, filtered by equality with `where_<column>=<value>` query parameters; organization scoping is applied automatically. GET /api/v1/db lists the tables.',
        parameters: [
          { name: 'table', in: 'path', required: true, description: 'An allowed table', schema: { type: 'string' } },
          { name: 'limit', in: 'query', required: false, description: 'Rows per page', schema: { type: 'integer', minimum: 1 } },
          { name: 'offset', in: 'query', required: false, description: 'Rows to skip', schema: { type: 'integer', minimum: 0 } },
        ],
        responses: {
          '200': {
            description: 'The rows, in primary-key order; next_offset when more follow.',
            content: json({
              type: 'object',
              properties: { rows: { type: 'array', items: { type: 'object' } }, limit: { type: 'integer' }, offset: { type: 'integer' }, next_offset: { type: 'integer' } },
              required: ['rows', 'limit', 'offset'],
            }),
          },
        },
      },
    },
    {
      method: 'post',
      path: '/api/v1/mcp',
      route: '/api/v1/mcp',
      tag: 'mcp',
      operation: {
        operationId: 'mcp',
        summary: 'MCP server (Streamable HTTP, stateless JSON-RPC 2.0)',
        description: [
          'The Model Context Protocol over stateless Streamable HTTP: methods initialize, tools/list, tools/call, resources/list, resources/read, prompts/list, prompts/get; answers are JSON (never an event stream), notifications answer 202.',
          'Tools: every organization-scoped RPC (its parameters as input schema; readOnlyHint for reads) plus list_rpcs, describe_rpc and call_rpc for the rest. A tool result is the RPC result as text and as structuredContent {result}; a refused call is an isError result carrying {error, code, detail, hint}.',
          'Resources: /developers.md, /llms.txt and this document. Prompts: the x-workflows.',
          'Same credentials, scopes, organization isolation, rate limits and metering as REST. 401 carries WWW-Authenticate with resource_metadata (RFC 9728); a tool call the key lacks the scope for (or a sandbox write) is HTTP 403 insufficient_scope (naming the scope) or sandbox_read_only. GET and DELETE answer 405.',
          'A batch counts one call per message against the per-minute rate limit; a batch that does not fit in what is left of the window is refused whole with 429 rate_limited and Retry-After, before any of it runs.',
          'tools=compact (or the X-MCP-Tools header) makes tools/list short: each tool a description tagged [domain] ending with its parameters, grouped by domain, with an open input schema (about a fifth of the full list); describe_rpc gives the full schema. Agents should use it.',
        ].join('\n\n'),
        parameters: [
          {
            name: 'tools',
            in: 'query',
            required: false,
            description: 'Which tools/list to answer: full (the default) or compact. The X-MCP-Tools header does the same; anything else is 400 validation_failed.',
            schema: { type: 'string', enum: ['full', 'compact'], default: 'full' },
          },
        ],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: { jsonrpc: { const: '2.0' }, method: { type: 'string' }, params: { type: 'object' }, id: {} },
            required: ['jsonrpc', 'method'],
          }),
        },
        responses: {
          '200': { description: 'A JSON-RPC response.', content: json({ type: 'object' }) },
          '202': { description: 'An accepted notification (no body).' },
        },
      },
    },
    {
      method: 'post',
      path: '/oauth/register',
      route: '/oauth/register',
      tag: 'oauth',
      public: true,
      operation: {
        operationId: 'oauth_register',
        summary: 'Dynamic client registration (RFC 7591)',
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: {
              client_name: { type: 'string', description: 'Shown on the consent page: 1 to 200 characters, no control or bidirectional formatting characters (invalid_client_metadata).' },
              redirect_uris: {
                type: 'array',
                items: { type: 'string' },
                description:
                  'https, or http on a loopback host; written exactly as URL parsing gives it back (no surrounding whitespace, control characters, backslashes, dot segments or fragment), else invalid_redirect_uri.',
              },
              token_endpoint_auth_method: { const: 'none' },
            },
            required: ['client_name', 'redirect_uris'],
          }),
        },
        responses: {
          '201': { description: 'The registered client.', content: json({ type: 'object', properties: { client_id: { type: 'string' } } }) },
          '400': { description: 'RFC 7591 `{error, error_description}`: invalid_redirect_uri, or invalid_client_metadata (also for malformed JSON, U+0000 or an unpaired surrogate).' },
        },
      },
    },
    {
      method: 'get',
      path: '/oauth/authorize',
      route: '/oauth/authorize',
      tag: 'oauth',
      public: true,
      operation: {
        operationId: 'oauth_authorize',
        summary: 'Authorization endpoint (code + PKCE S256)',
        parameters: ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'].map((name) => ({
          name,
          in: 'query',
          required: !['resource', 'state'].includes(name),
          description: name === 'scope' ? 'Space-separated: read write jobs offline_access' : `The ${name} parameter`,
          schema: { type: 'string' },
        })),
        responses: { '302': { description: 'Redirect to the consent page or back to redirect_uri.' } },
      },
    },
    {
      method: 'post',
      path: '/oauth/token',
      route: '/oauth/token',
      tag: 'oauth',
      public: true,
      operation: {
        operationId: 'oauth_token',
        summary: 'Token endpoint (code exchange, refresh)',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: {
                  grant_type: { enum: ['authorization_code', 'refresh_token'] },
                  code: { type: 'string' },
                  code_verifier: { type: 'string' },
                  client_id: { type: 'string' },
                  redirect_uri: { type: 'string' },
                  refresh_token: { type: 'string' },
                },
                required: ['grant_type', 'client_id'],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Tokens.',
            content: json({
              type: 'object',
              properties: { access_token: { type: 'string' }, refresh_token: { type: 'string' }, expires_in: { type: 'integer' }, scope: { type: 'string' } },
            }),
          },
          '400': { description: 'RFC 6749 `{error, error_description}`: invalid_request for a missing or repeated field, or one holding U+0000 or an unpaired surrogate; invalid_grant; unsupported_grant_type.' },
        },
      },
    },
    {
      method: 'post',
      path: '/oauth/revoke',
      route: '/oauth/revoke',
      tag: 'oauth',
      public: true,
      operation: {
        operationId: 'oauth_revoke',
        summary: 'Revoke a token',
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { token: { type: 'string' } } } } } },
        responses: { '200': { description: 'Revoked (also for an unknown token).' } },
      },
    },
  ]
}

/** The public meta endpoints this part serves. */
function metaOperations(): RestOperation[] {
  const text = (operationId: string, path: string, summary: string, type: string): RestOperation => ({
    method: 'get',
    path,
    route: path,
    tag: 'meta',
    public: true,
    operation: { operationId, summary, responses: { '200': { description: summary, content: { [type]: { schema: { type: 'string' } } } } } },
  })
  return [
    {
      method: 'get',
      path: '/api/v1/health',
      route: '/api/v1/health',
      tag: 'meta',
      public: true,
      operation: {
        operationId: 'health',
        summary: 'Liveness: status and row counts',
        responses: {
          '200': {
            description: 'Serving. status is degraded while the read models are stuck (projections.failing says since when and why): reads answer, but stale.',
            content: json({ type: 'object', properties: { status: { enum: ['ok', 'degraded'] }, version: { type: 'string' } } }),
          },
          '503': { description: 'The database is not reachable: code store_unavailable, with Retry-After (seconds).', content: json({ type: 'object' }) },
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/capabilities',
      route: '/api/v1/capabilities',
      tag: 'meta',
      operation: {
        operationId: 'capabilities',
        summary: 'Machine-readable API inventory',
        responses: { '200': { description: 'Domains, methods, job kinds, webhook events and limits.', content: json({ type: 'object' }) } },
      },
    },
    {
      method: 'get',
      path: '/api/v1/openapi.json',
      route: '/api/v1/openapi.json',
      tag: 'meta',
      public: true,
      operation: { operationId: 'openapi', summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1.', content: json({ type: 'object' }) } } },
    },
    text('llms_txt', '/llms.txt', 'Plain-text orientation for agents', 'text/plain'),
    text('developers_md', '/developers.md', 'The full API guide (markdown)', 'text/markdown'),
    text('llms_full_txt', '/llms-full.txt', 'The full API guide (same text as /developers.md)', 'text/plain'),
    text('changelog_md', '/changelog.md', 'Changelog: additive changes and deprecations with sunset dates', 'text/markdown'),
    text('security_txt', '/.well-known/security.txt', 'Vulnerability-disclosure contact (RFC 9116)', 'text/plain'),
    {
      method: 'get',
      path: '/.well-known/oauth-authorization-server',
      route: '/.well-known/oauth-authorization-server',
      tag: 'meta',
      public: true,
      operation: {
        operationId: 'oauth_authorization_server',
        summary: 'Authorization-server metadata (RFC 8414)',
        description: 'The endpoints of this OAuth 2.0 authorization server, its scopes, and what it supports: code + PKCE S256, public clients, authorization_code and refresh_token grants.',
        responses: {
          '200': {
            description: 'The metadata.',
            content: json({
              type: 'object',
              properties: {
                issuer: { type: 'string' },
                authorization_endpoint: { type: 'string' },
                token_endpoint: { type: 'string' },
                registration_endpoint: { type: 'string' },
                revocation_endpoint: { type: 'string' },
                scopes_supported: { type: 'array', items: { type: 'string' } },
                code_challenge_methods_supported: { type: 'array', items: { type: 'string' } },
                grant_types_supported: { type: 'array', items: { type: 'string' } },
              },
            }),
          },
        },
      },
    },
    {
      method: 'get',
      path: '/.well-known/oauth-protected-resource/api/v1/mcp',
      route: '/.well-known/oauth-protected-resource/api/v1/mcp',
      tag: 'meta',
      public: true,
      operation: {
        operationId: 'oauth_protected_resource',
        summary: 'Protected-resource metadata of the MCP server and API (RFC 9728)',
        description: 'Named by the resource_metadata parameter of every 401 challenge: the resource, its authorization server (this service), scopes and bearer methods.',
        responses: {
          '200': {
            description: 'The metadata.',
            content: json({
              type: 'object',
              properties: {
                resource: { type: 'string' },
                authorization_servers: { type: 'array', items: { type: 'string' } },
                scopes_supported: { type: 'array', items: { type: 'string' } },
                bearer_methods_supported: { type: 'array', items: { type: 'string' } },
                resource_documentation: { type: 'string' },
              },
              required: ['resource', 'authorization_servers'],
            }),
          },
        },
      },
    },
    {
      method: 'get',
      path: '/sdk',
      route: '/sdk',
      tag: 'meta',
      public: true,
      operation: {
        operationId: 'sdk_index',
        summary: 'The Python SDK: version, archives and install command (also at /sdk/)',
        responses: { '200': { description: 'The SDK index.', content: json({ type: 'object', properties: { version: { type: 'string' }, archives: { type: 'array', items: { type: 'object' } } } }) } },
      },
    },
    {
      method: 'get',
      path: '/sdk/{archive}',
      route: '/sdk/:archive',
      tag: 'meta',
      public: true,
      operation: {
        operationId: 'sdk_archive',
        summary: 'The Python SDK source archive (pip install <url>)',
        description: 'Generated from the registry: a typed client for every RPC, job polling and webhook signature verification, standard library only. rankrelay-latest.tar.gz is a stable alias.',
        parameters: [{ name: 'archive', in: 'path', required: true, description: 'rankrelay-<version>.tar.gz or rankrelay-latest.tar.gz', schema: { type: 'string' } }],
        responses: { '200': { description: 'The archive.', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } } } },
      },
    },
  ]
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
  for (const rest of [...metaOperations(), ...restOperations()]) {
    const served = ctx.isServed(rest.method.toUpperCase() as 'GET' | 'POST', rest.route)
    const operation: Operation = { ...rest.operation, tags: [rest.tag] }
    operation.security = rest.public ? [] : [{ bearerAuth: [] }, { oauth2: [] }]
    const errors = (rest.public ? [404, 429] : [401, 403, 404, 429]).filter((status) => statuses.includes(status))
    operation.responses = { ...operation.responses, ...rpcErrorResponses(errors) }
    if (!served) {
      planned.push(`${rest.method.toUpperCase()} ${rest.path}`)
      operation['x-available'] = false
      operation.description = `**Not yet served by this version**: specified, and answers 404 route_not_found until it ships. ${operation.description ?? ''}`.trim()
    }
    paths[rest.path] = { ...paths[rest.path], [rest.method]: operation }
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
                  value: { error: ERRORS[code].message, code, ...(ERRORS[code].hint ? { hint: ERRORS[code].hint } : {}), request_id: EXAMPLE_REQUEST_ID },
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
          responses: { '200': { description: 'Any 2xx within 10 seconds acknowledges; anything else is retried (8 attempts, 1 to 64 minutes).' } },
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
        planned.length > 0 ? `Specified but not yet served by this version (marked x-available: false): ${planned.join(', ')}.` : '',
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
            request_id: { type: 'string', description: "The request's id, as in its X-Request-Id header: quote it when reporting a problem" },
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
              Link: { description: 'rel="deprecation" (the changelog) and rel="successor-version" (the replacement)', schema: { type: 'string' } },
            }
          : {}),
      },
      responses: errorResponses,
    },
    'x-workflows': WORKFLOWS,
  }
}
