/**
 * The public text documents and the capabilities inventory: content types, auth, generated from the
 * registries (every RPC with its parameters, every error code), the webhook verification examples really
 * verify (run with node and python3), security.txt per RFC 9116, and X-Service-API-Version on every /api
 * answer including errors and unknown routes.
 */
import { spawnSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { PUBLIC_EVENTS } from '../../domain/api-platform/public-events.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { ERRORS } from '../../read-api/errors.js'
import { paramDocs } from '../../read-api/docs/schema.js'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey } from './helpers.js'
import { appWith, bearer, registryWith } from './docs-support.js'

const ts = await startTestSystem(t)
const BASE = 'https://api.rankrelay.test'
const app = await appWith(t, ts, registryWith(), { baseUrl: BASE, securityContact: 'mailto:security@rankrelay.test' })
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers })
const rpcs = ts.system.registry.all()

t.test('content types and public access', async (t) => {
  for (const [url, type] of [
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/developers.md', 'text/markdown; charset=utf-8'],
    ['/llms-full.txt', 'text/plain; charset=utf-8'],
    ['/changelog.md', 'text/markdown; charset=utf-8'],
    ['/.well-known/security.txt', 'text/plain; charset=utf-8'],
    ['/api/v1/openapi.json', 'application/json; charset=utf-8'],
  ]) {
    const response = await get(url!)
    t.equal(response.statusCode, 200, `${url} is public`)
    t.equal(response.headers['content-type'], type, `${url}: ${type}`)
  }
  t.equal((await get('/developers.md')).body, (await get('/llms-full.txt')).body, '/llms-full.txt is the same text as /developers.md')
})

t.test('capabilities needs credentials and describes what this key may call', async (t) => {
  const anonymous = await get('/api/v1/capabilities')
  expectError(t, anonymous, 401, 'unauthorized')
  t.equal(anonymous.headers['x-service-api-version'], '1.0.0')
  expectError(t, await get('/api/v1/capabilities', bearer('rrk_not_a_real_key_at_all_0000')), 401, 'unauthorized')

  const reader = await orgWithKey(ts, 'Reader', 'read')
  const response = await get('/api/v1/capabilities', bearer(reader.key))
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(response.headers['cache-control'], 'private, no-store')
  const body = response.json()
  t.same(body.caller, { org_id: reader.orgId, scopes: ['read'], kind: 'organization' })
  t.equal(body.methods.length, rpcs.length, 'every registry method')
  t.same(body.domains.map((d: any) => d.name).sort(), [...new Set(rpcs.map((r) => r.definition.domain))].sort())
  t.equal(
    body.domains.reduce((n: number, d: any) => n + d.methods, 0),
    rpcs.length,
  )
  const byName = new Map(body.methods.map((m: any) => [m.name, m]))
  for (const { definition } of rpcs) {
    const m: any = byName.get(definition.name)
    t.same(
      [m.domain, m.access, m.scopes, m.org_scoped, m.platform_only, m.summary],
      [
        definition.domain,
        definition.access,
        [definition.access],
        definition.orgScoped,
        definition.platformOnly === true,
        definition.summary,
      ],
      definition.name,
    )
    const callable = definition.access === 'read' && !definition.platformOnly
    t.equal(m.callable, callable, `${definition.name}: callable by a read-only organization key = ${callable}`)
  }
  t.same(body.job_kinds, [], 'no kind has a handler in this app')
  t.match(body.job_kinds_note, /job_kind_unavailable/)
  t.same(
    body.webhook_events.map((e: any) => e.name),
    PUBLIC_EVENTS.map((e) => e.name),
  )
  t.equal(body.limits.body_limit_bytes, 1024 * 1024)
  t.equal(body.limits.idempotency_key_max_length, 200)
  t.equal(body.limits.rate_limit.default_per_minute, 1_000_000, 'the configured default rate limit')
  t.equal(body.sandbox, null, 'no sandbox hosted: no key published')
  t.equal(body.documents.openapi, `${BASE}/api/v1/openapi.json`)
})

t.test('llms.txt orients an agent', async (t) => {
  const text = (await get('/llms.txt')).body
  t.match(text, /^# RankRelay\n\n> /, 'llmstxt.org shape: title, then a summary quote')
  for (const needle of [
    `${BASE}/developers.md`,
    `${BASE}/api/v1/openapi.json`,
    `${BASE}/llms-full.txt`,
    'Authorization: Bearer',
    'rrk_',
    'rro_',
    'POST /api/v1/rpc/<method>',
  ]) {
    t.match(text, needle)
  }
  t.match(text, 'generate_aeo_questions → set_aeo_cadence', 'the AI Visibility workflow')
  t.match(text, `Methods: ${rpcs.length} in`)
})

t.test('developers.md: every RPC with its parameters and result, every error code', async (t) => {
  const guide = (await get('/developers.md')).body
  for (const rpc of rpcs) {
    const name = rpc.definition.name
    const start = guide.indexOf(`\n### ${name}\n`)
    if (start < 0) {
      t.fail(`${name} has no section`)
      continue
    }
    const section = guide.slice(start + 1, guide.indexOf('\n### ', start + 1))
    t.match(section, `\`POST /api/v1/rpc/${name}\` · access **${rpc.definition.access}**`, `${name}: endpoint and access`)
    for (const param of paramDocs(rpc)) t.match(section, `| \`${param.name}\` | `, `${name}: parameter ${param.name}`)
    t.match(section, /\nResult: `.+`/, `${name}: result`)
  }
  // A described parameter shows its description; a required one says so.
  t.match(guide, /\| `client_id` \| integer \| yes \|/)
  t.match(guide, '| `limit` | integer | no | `500` |'.replace('500', '100'))
  for (const [code, spec] of Object.entries(ERRORS)) t.match(guide, `| \`${code}\` | ${spec.status} |`, `error ${code}`)
  for (const event of PUBLIC_EVENTS) t.match(guide, `| \`${event.name}\` |`, `event ${event.name}`)
  t.match(guide, 'X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>')
})

/** The fenced block of a language following the first occurrence of `after`. */
function codeBlock(markdown: string, language: string): string {
  const start = markdown.indexOf(`\`\`\`${language}\n`)
  return markdown.slice(start + language.length + 4, markdown.indexOf('\n```', start + 4))
}

t.test('the webhook verification examples verify real signatures (node and python3)', async (t) => {
  const guide = (await get('/developers.md')).body
  const secret = 'whsec_test_secret'
  const body = JSON.stringify({ id: 1, event: 'ping', created_at: new Date().toISOString(), org_id: 1, client_id: null, data: {} })
  const now = Math.floor(Date.now() / 1000)
  const sign = (ts: number, raw: string) => `t=${ts},v1=${createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')}`
  const cases: [string, string, string, boolean][] = [
    ['valid', sign(now, body), body, true],
    ['tampered body', sign(now, body), body.replace('ping', 'pong'), false],
    ['stale timestamp', sign(now - 301, body), body, false],
    ['wrong secret', `t=${now},v1=${createHmac('sha256', 'other').update(`${now}.${body}`).digest('hex')}`, body, false],
    ['garbage', 'nonsense', body, false],
  ]
  const dir = mkdtempSync(path.join(tmpdir(), 'rr-verify-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))

  const nodeFile = path.join(dir, 'verify.mjs')
  writeFileSync(nodeFile, codeBlock(guide, 'js'))
  const { verify } = await import(pathToFileURL(nodeFile).href)
  for (const [what, header, raw, expected] of cases) t.equal(verify(secret, header, Buffer.from(raw)), expected, `node: ${what}`)

  const pyFile = path.join(dir, 'verify.py')
  writeFileSync(
    pyFile,
    `${codeBlock(guide, 'python')}\n\nimport json, sys\ncases = json.load(sys.stdin)\nprint(json.dumps([verify(${JSON.stringify(secret)}, h, b.encode()) for h, b in cases]))\n`,
  )
  const python = spawnSync('python3', [pyFile], { input: JSON.stringify(cases.map(([, h, b]) => [h, b])), encoding: 'utf8' })
  t.equal(python.error, undefined, 'python3 runs (it is required on this machine and on CI)')
  t.equal(python.status, 0, `python exits 0: ${python.stderr}`)
  t.same(
    JSON.parse(python.stdout || 'null'),
    cases.map(([, , , expected]) => expected),
    'python: every case',
  )
})

t.test('a deployment hosting the sandbox publishes its read-only key', async (t) => {
  const hosting = await appWith(t, ts, registryWith(), { baseUrl: BASE, sandbox: true })
  t.match((await hosting.inject({ url: '/llms.txt' })).body, `\`${SANDBOX_KEY}\``)
  t.match(
    (await hosting.inject({ url: '/developers.md' })).body,
    `**Sandbox.** Try every read method without an account with the published read-only key \`${SANDBOX_KEY}\``,
  )
  const capabilities = (await hosting.inject({ url: '/api/v1/capabilities', headers: bearer(ts.platformKey) })).json()
  t.equal(capabilities.sandbox.key, SANDBOX_KEY)
  t.notMatch((await get('/llms.txt')).body, SANDBOX_KEY, 'and one that does not, does not')
})

t.test('security.txt (RFC 9116)', async (t) => {
  const response = await get('/.well-known/security.txt')
  const fields = new Map(
    response.body
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  )
  t.equal(fields.get('Contact'), 'mailto:security@rankrelay.test', 'the configured contact')
  t.equal(fields.get('Canonical'), `${BASE}/.well-known/security.txt`)
  t.equal(fields.get('Preferred-Languages'), 'en')
  const expires = fields.get('Expires') ?? ''
  t.match(expires, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'an RFC 3339 timestamp')
  const now = ts.system.write.clock().getTime()
  t.ok(Date.parse(expires) > now, 'in the future')
  t.ok(Date.parse(expires) <= now + 365 * 86_400_000, 'at most a year ahead')

  const fallback = await (await appWith(t, ts, registryWith())).inject({ url: '/.well-known/security.txt' })
  t.match(fallback.body, /^Contact: mailto:security@localhost$/m, 'default: security@ the host the service is reached at')
})

t.test('X-Service-API-Version on every /api answer, errors and unknown routes included', async (t) => {
  const answers = [
    await get('/api/v1/health'),
    await get('/api/v1/no-such-thing'),
    await app.inject({ method: 'POST', url: '/api/v1/rpc/get_client', payload: '{}', headers: { 'content-type': 'application/json' } }),
    await app.inject({
      method: 'POST',
      url: '/api/v1/rpc/no_such_method',
      payload: '{}',
      headers: { ...bearer(ts.platformKey), 'content-type': 'application/json' },
    }),
    await app.inject({
      method: 'POST',
      url: '/api/v1/rpc/get_client',
      payload: '{',
      headers: { ...bearer(ts.platformKey), 'content-type': 'application/json' },
    }),
  ]
  t.same(
    answers.map((a) => a.statusCode),
    [200, 404, 401, 403, 400],
  )
  for (const answer of answers) t.equal(answer.headers['x-service-api-version'], '1.0.0', `${answer.statusCode} carries it`)
})
