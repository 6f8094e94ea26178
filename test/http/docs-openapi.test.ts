/**
 * GET /api/v1/openapi.json: a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator), clean under
 * Redocly's recommended ruleset, generated from the registry (every RPC, and a new one without touching the
 * docs), with the error envelope, security schemes, workflows and webhooks.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import t from 'tap'
import { PUBLIC_EVENTS } from '../../domain/api-platform/public-events.js'
import { ERRORS } from '../../read-api/errors.js'
import { startTestSystem } from '../support/system.js'
import { appWith, echoRpc, registryWith } from './docs-support.js'

const ts = await startTestSystem(t)
const BASE = 'https://api.rankrelay.test'
const app = await appWith(t, ts, registryWith(), { baseUrl: BASE })

const response = await app.inject({ url: '/api/v1/openapi.json' })
const doc = response.json()

t.test('public, JSON, versioned', async (t) => {
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(response.headers['x-service-api-version'], '1.0.0')
  t.equal(doc.openapi, '3.1.0')
  t.equal(doc.servers[0].url, BASE, 'the configured base URL')
})

t.test('valid OpenAPI 3.1 (schema validator)', async (t) => {
  const validator = new Validator()
  const result = await validator.validate(structuredClone(doc))
  t.equal(validator.version, '3.1', 'validated as 3.1')
  t.ok(result.valid, `valid: ${JSON.stringify(result.errors ?? []).slice(0, 1000)}`)
})

t.test('Redocly recommended ruleset: no errors, only the accepted warnings', async (t) => {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source: response.body, absoluteRef: `${BASE}/api/v1/openapi.json`, config })
  const errors = problems.filter((p) => p.severity === 'error')
  t.same(
    errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
    [],
    'zero errors',
  )
  // Accepted, by design never a 2xx: browser forms and navigations that answer a redirect (303) or an error
  // page (the OAuth consent form, RFC 6749 §4.1.2; sign-in, sign-out, the invite's and reset link's last
  // steps, disconnecting an app; single sign-on's hops to and from the identity provider), and the MCP
  // endpoint's GET and DELETE, which only say 405 (a stateless server has no stream or session).
  const redirectsOrRefuses = new Set(
    [
      'oauth~1authorize/post',
      'login/post',
      'logout/post',
      'invite~1{token}~1confirm/post',
      'password-reset~1{token}/post',
      'account~1apps~1{grantId}~1disconnect/post',
      'auth~1oidc~1{provider}/get',
      'auth~1oidc~1{provider}~1callback/get',
      'saml~1{key}~1login/get',
      'saml~1{key}~1acs/post',
      'api~1v1~1mcp/get',
      'api~1v1~1mcp/delete',
    ].map((operation) => `#/paths/~1${operation}/responses`),
  )
  const accepted = (p: (typeof problems)[number]) =>
    p.ruleId === 'operation-2xx-response' && redirectsOrRefuses.has(p.location[0]?.pointer ?? '')
  const warnings = problems.filter((p) => p.severity === 'warn' && !accepted(p))
  t.same(
    warnings.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
    [],
    'no warnings beyond the justified ones',
  )
})

t.test('one operation per registry RPC, derived from its declaration', async (t) => {
  const rpcs = ts.system.registry.all()
  t.ok(rpcs.length > 50, `the registry has ${rpcs.length} RPCs`)
  const rpcPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/rpc/'))
  t.equal(rpcPaths.length, rpcs.length, 'no more, no fewer')
  for (const { definition } of rpcs) {
    const op = doc.paths[`/api/v1/rpc/${definition.name}`]?.post
    if (!op) {
      t.fail(`${definition.name} is missing`)
      continue
    }
    t.equal(op.operationId, definition.name)
    t.same(op.tags, [definition.domain])
    const result = op.responses['200'].content['application/json'].schema
    t.same(result.required, ['result'], `${definition.name}: 200 is {result}`)
    for (const status of ['400', '401', '403', '404']) t.equal(op.responses[status]?.$ref, `#/components/responses/Error${status}`)
  }
  // A concrete one: get_aeo_captures's parameters, including the registry's org_id and pagination.
  const captures = doc.paths['/api/v1/rpc/get_aeo_captures'].post
  const params = captures.requestBody.content['application/json'].schema
  t.same(params.required, ['client_id'])
  t.same(Object.keys(params.properties).sort(), ['client_id', 'limit', 'month', 'offset', 'org_id', 'query_id'])
  t.equal(params.properties.limit.maximum, 500)
  t.equal(params.additionalProperties, false, 'unknown keys are refused, and the document says so')
  t.same(captures['x-pagination'], { maxLimit: 500, defaultLimit: 100 })
  const write = doc.paths['/api/v1/rpc/add_client'].post
  t.same(write.security, [{ bearerAuth: [] }, { oauth2: ['write'] }], 'a write method asks for the write scope')
})

t.test('the error envelope and every registered code', async (t) => {
  t.same(doc.components.schemas.Error.required, ['error', 'code', 'request_id'])
  t.same(doc.components.schemas.Error.properties.code.enum.sort(), Object.keys(ERRORS).sort())
  for (const [code, spec] of Object.entries(ERRORS)) {
    const examples = doc.components.responses[`Error${spec.status}`].content['application/json'].examples
    t.equal(examples[code]?.value.code, code, `${code} is listed under ${spec.status}`)
  }
})

t.test('security schemes', async (t) => {
  const { bearerAuth, oauth2 } = doc.components.securitySchemes
  t.same([bearerAuth.type, bearerAuth.scheme], ['http', 'bearer'])
  t.match(bearerAuth.bearerFormat, /rrk_.*rro_/)
  const flow = oauth2.flows.authorizationCode
  t.equal(flow.authorizationUrl, `${BASE}/oauth/authorize`)
  t.equal(flow.tokenUrl, `${BASE}/oauth/token`)
  t.same(Object.keys(flow.scopes).sort(), ['jobs', 'offline_access', 'read', 'write'])
  t.match(oauth2.description, /PKCE \(S256\)/)
  const health = doc.paths['/api/v1/health'].get
  t.same(health.security, [], 'public endpoints need no credentials')
})

t.test('specified REST paths: served ones plain, the rest marked not yet served', async (t) => {
  for (const path of [
    '/api/v1/jobs',
    '/api/v1/jobs/{job_id}',
    '/api/v1/exports/{org_id}/{filename}',
    '/api/v1/mcp',
    '/oauth/token',
    '/api/v1/db/{table}',
  ]) {
    t.ok(doc.paths[path], `${path} is documented`)
  }
  for (const path of ['/sdk/{archive}', '/api/v1/db'])
    t.equal(Object.values<any>(doc.paths[path])[0]['x-available'], undefined, `${path} is served`)
  const files = doc.paths['/api/v1/files/{path}'].get
  t.equal(files['x-available'], undefined, 'files are served: not marked')
  const jobs = doc.paths['/api/v1/jobs'].post
  const served = app.hasRoute({ method: 'POST', url: '/api/v1/jobs' })
  t.equal(jobs['x-available'], served ? undefined : false, 'jobs are marked exactly when this build lacks the route')
  if (!served) {
    t.match(jobs.description, /Not yet served/)
    t.match(doc.info.description, /POST \/api\/v1\/jobs/, 'info.description lists the planned endpoints')
    const answer = await app.inject({ method: 'POST', url: '/api/v1/jobs' })
    t.equal(answer.statusCode, 404, 'and indeed it answers 404 today')
  }
})

t.test('browser pages, redirects and forms: documented as such, and served where sign-in is configured', async (t) => {
  // The test system's app is wired as ops/system.ts wires it, sign-in and single sign-on included.
  const full = (await ts.app.inject({ url: '/api/v1/openapi.json' })).json()
  const login = full.paths['/login']
  t.ok(login.get.responses['200'].content['text/html'], 'a page answers text/html')
  const form = login.post.requestBody.content['application/x-www-form-urlencoded']
  t.ok(form.schema.properties.csrf, 'a form is a form body, its CSRF field described')
  t.ok(login.post.responses['303'].headers.Location, 'a redirect names its Location')
  const endpoints = [
    ['get', '/login'],
    ['get', '/auth/oidc/{provider}/callback'],
    ['post', '/saml/{key}/acs'],
    ['get', '/account/apps'],
    ['get', '/metrics'],
    ['delete', '/api/v1/mcp'],
  ] as const
  for (const [method, path] of endpoints) {
    t.ok(full.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`)
    t.equal(full.paths[path]?.[method]?.['x-available'], undefined, `${method.toUpperCase()} ${path} is served`)
  }
  t.equal(doc.paths['/login'].get['x-available'], false, 'an app without sign-in configured lists the page as not served')
  t.equal((await app.inject({ url: '/login' })).statusCode, 404, 'and indeed does not serve it')
})

t.test('x-workflows name real operations', async (t) => {
  const operationIds = new Set<string>()
  for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) operationIds.add(op.operationId)
  const workflows = doc['x-workflows']
  t.same(
    workflows.map((w: any) => w.workflowId),
    ['ai_visibility', 'organization_export'],
  )
  for (const workflow of workflows) {
    for (const step of workflow.steps)
      t.ok(operationIds.has(step.operationId), `${workflow.workflowId}.${step.stepId} → ${step.operationId}`)
  }
})

t.test('webhooks: every public event with the signed envelope', async (t) => {
  t.same(Object.keys(doc.webhooks).sort(), PUBLIC_EVENTS.map((e) => e.name).sort())
  const deprecation = doc.webhooks['api.deprecation'].post
  const headers = deprecation.parameters.map((p: any) => p.name)
  t.same(headers, ['X-Service-Event', 'X-Service-Delivery', 'X-Service-Timestamp', 'X-Service-Signature'])
  const body = deprecation.requestBody.content['application/json'].schema.allOf
  t.equal(body[0].$ref, '#/components/schemas/WebhookEnvelope')
  t.same(Object.keys(body[1].properties.data.properties).sort(), ['method', 'replacement', 'sunset'])
  t.same(doc.components.schemas.WebhookEnvelope.required.sort(), ['client_id', 'created_at', 'data', 'event', 'id', 'org_id'])
})

t.test('a new RPC appears without editing the docs', async (t) => {
  const extended = await appWith(t, ts, registryWith(echoRpc('echo_word', { paginated: { maxLimit: 20 } })), { baseUrl: BASE })
  const next = (await extended.inject({ url: '/api/v1/openapi.json' })).json()
  const op = next.paths['/api/v1/rpc/echo_word']?.post
  t.ok(op, 'echo_word is documented')
  t.equal(op.operationId, 'echo_word')
  t.same(op.tags, ['testing'])
  const params = op.requestBody.content['application/json'].schema
  t.equal(params.properties.word.description, 'The word to echo back')
  t.equal(params.properties.limit.maximum, 20, 'its pagination too')
  t.same(op.responses['200'].content['application/json'].schema.properties.result.required, ['word'])
  t.ok(
    next.tags.some((tag: any) => tag.name === 'testing'),
    'its domain becomes a tag',
  )
  const validator = new Validator()
  t.ok((await validator.validate(next)).valid, 'still valid')
})
