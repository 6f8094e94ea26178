/**
 * A deprecated registry entry: every call (success or error) answers Deprecation, Sunset and Link; the
 * capabilities, OpenAPI, guide and changelog mark it; ApiDeprecationAnnounced (the api.deprecation event) is
 * recorded exactly once, and only once the sunset is within the 60-day notice period.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import t from 'tap'
import { RpcRegistry } from '../../read-api/registry.js'
import { startTestSystem } from '../support/system.js'
import { streamEvents } from './helpers.js'
import { appWith, bearer, echoRpc, registryWith } from './docs-support.js'

const ts = await startTestSystem(t)
const BASE = 'https://api.rankrelay.test'
const DAY = 86_400_000
const day = (offsetDays: number) => new Date(ts.system.write.clock().getTime() + offsetDays * DAY).toISOString().slice(0, 10)

const soon = day(30) // within the notice period
const later = day(200) // not yet
const registry = registryWith(
  echoRpc('echo_word'),
  echoRpc('echo_old', { deprecated: { sunset: soon, replacement: 'echo_word', since: '2026-01-01' } }),
  echoRpc('echo_someday', { deprecated: { sunset: later } }),
)
const app = await appWith(t, ts, registry, { baseUrl: BASE })
const call = (method: string, body: unknown, headers: Record<string, string> = bearer(ts.platformKey)) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/rpc/${method}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })

t.test('every call of a deprecated method answers Deprecation, Sunset and Link', async (t) => {
  const ok = await call('echo_old', { word: 'hi' })
  t.equal(ok.statusCode, 200)
  t.same(ok.json(), { result: { word: 'hi' } }, 'it still works until removed')
  t.equal(ok.headers.deprecation, `@${Date.parse('2026-01-01T00:00:00Z') / 1000}`, 'RFC 9745: @<unix seconds> of since')
  t.equal(ok.headers.sunset, new Date(`${soon}T00:00:00Z`).toUTCString(), 'RFC 8594 HTTP-date')
  t.match(ok.headers.sunset, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} 00:00:00 GMT$/)
  const link = String(ok.headers.link)
  t.match(link, `<${BASE}/changelog.md#deprecations>; rel="deprecation"`)
  t.match(link, `<${BASE}/developers.md#echo_word>; rel="successor-version"`)
  t.equal(ok.headers['x-service-api-version'], '1.0.0')

  for (const [what, response] of [
    ['invalid parameters (400)', await call('echo_old', { word: 7 })],
    ['no credentials (401)', await call('echo_old', { word: 'hi' }, {})],
  ] as const) {
    t.ok(response.statusCode >= 400, `${what}: an error`)
    t.equal(response.headers.deprecation, ok.headers.deprecation, `${what}: Deprecation too`)
    t.equal(response.headers.sunset, ok.headers.sunset, `${what}: Sunset too`)
    t.equal(response.headers.link, ok.headers.link, `${what}: Link too`)
  }

  const defaulted = await call('echo_someday', { word: 'x' })
  const expectedSince = Date.parse(`${later}T00:00:00Z`) - 60 * DAY
  t.equal(defaulted.headers.deprecation, `@${expectedSince / 1000}`, 'without since: the start of the 60-day notice')
  t.notOk(String(defaulted.headers.link).includes('successor-version'), 'no replacement, no successor link')

  const current = await call('echo_word', { word: 'hi' })
  t.equal(current.headers.deprecation, undefined, 'a current method has none')
  t.equal(current.headers.sunset, undefined)
})

t.test('the documents mark it', async (t) => {
  const capabilities = (await app.inject({ url: '/api/v1/capabilities', headers: bearer(ts.platformKey) })).json()
  const old = capabilities.methods.find((m: any) => m.name === 'echo_old')
  t.same([old.deprecated, old.deprecation], [true, { since: '2026-01-01', sunset: soon, replacement: 'echo_word' }])
  t.equal(capabilities.methods.find((m: any) => m.name === 'echo_word').deprecated, false)

  const openapi = (await app.inject({ url: '/api/v1/openapi.json' })).json()
  const op = openapi.paths['/api/v1/rpc/echo_old'].post
  t.same([op.deprecated, op['x-sunset'], op['x-replacement']], [true, soon, 'echo_word'])
  t.same(Object.keys(op.responses['200'].headers).sort(), ['Deprecation', 'Link', 'Sunset', 'X-Service-API-Version'])
  t.equal(openapi.paths['/api/v1/rpc/echo_word'].post.deprecated, undefined)
  t.ok((await new Validator().validate(openapi)).valid, 'still valid OpenAPI 3.1')

  const changelog = (await app.inject({ url: '/changelog.md' })).body
  t.match(changelog, `| \`echo_old\` | 2026-01-01 | ${soon} | \`echo_word\` |`)
  t.match(changelog, `| \`echo_someday\` |`)
  const guide = (await app.inject({ url: '/developers.md' })).body
  t.match(guide, `> **Deprecated** since 2026-01-01; sunset ${soon}. Use [\`echo_word\`](#echo_word).`)
})

t.test('api.deprecation is recorded once, 60 days ahead', async (t) => {
  const announced = await streamEvents(ts, 'api_deprecation-echo_old')
  t.equal(announced.length, 1, 'recorded at startup (app.ready)')
  t.equal(announced[0]!.type, 'ApiDeprecationAnnounced')
  t.same(announced[0]!.data, { method: 'echo_old', sunset: soon, replacement: 'echo_word', since: '2026-01-01' })
  t.equal(announced[0]!.metadata.org_id, null, 'platform-level')
  t.same(announced[0]!.metadata.actor, { kind: 'system', id: 'api-deprecation' })

  // Another API process starting (and a concurrent pair) records nothing more.
  await Promise.all([appWith(t, ts, registry), appWith(t, ts, registry)])
  t.equal((await streamEvents(ts, 'api_deprecation-echo_old')).length, 1, 'still exactly one')
  t.equal((await streamEvents(ts, 'api_deprecation-echo_someday')).length, 0, 'a sunset 200 days away is not announced yet')
  t.equal((await streamEvents(ts, 'api_deprecation-echo_word')).length, 0, 'a current method never is')
})

t.test('declarations are checked when the registry is built', async (t) => {
  t.throws(() => new RpcRegistry([echoRpc('a', { deprecated: { sunset: '2026-13-01' } })]), /YYYY-MM-DD/)
  t.throws(
    () => new RpcRegistry([echoRpc('a', { deprecated: { sunset: '2027-01-01', replacement: 'nowhere' } })]),
    /replacement nowhere is not registered/,
  )
  t.throws(() => new RpcRegistry([echoRpc('a', { deprecated: { sunset: '2027-01-01', replacement: 'a' } })]), /cannot replace itself/)
})
