/**
 * Connecting a client's WordPress site through the RPCs, against the local WordPress stand-in: the check runs
 * first and its findings (version, theme, plugins, user) are recorded; a wrong password refuses with a coded
 * 4xx and records nothing (unless saved unverified); an address that is or resolves to a private one is
 * refused either way; later checks record ok and failing answers; the relied-on plugins; removal. The
 * application password is never in an answer, the log's plain fields, the auditor's view or a log line, and
 * the publisher's loadWordPressCredentials opens it.
 */
import { Writable } from 'node:stream'
import pino from 'pino'
import t from 'tap'
import { loadWordPressCredentials } from '../../commands/publishing/connections.js'
import { unseal } from '../../commands/secrets/service-key.js'
import { startWordPressStandIn, standInSettings } from '../support/stand-ins/wordpress.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents } from './helpers.js'
import { LOOPBACK_ALLOWED, TEST_SERVICE_KEY } from './webhooks-helpers.js'

const PASSWORD = 'Wp9x QrSt Uv12 Wx34 Yz56 Ab78'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const wp = await startWordPressStandIn({ applicationPassword: PASSWORD, username: 'rankrelay', elementor: true })
  t.teardown(() => wp.close())
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const ts = await startTestSystem(t, {
    log: pino({ level: 'debug' }, sink),
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED },
    // private.example.com stands for a public-looking name whose DNS answer is a private address.
    publishing: standInSettings({ resolve: async (host) => (host === 'private.example.com' ? ['10.1.2.3'] : [host]) }),
  })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const connect = (extra: Record<string, unknown> = {}) =>
    ts.rpc(
      'set_client_wordpress',
      { client_id: clientId, base_url: `${wp.url}/wp-json/`, username: 'rankrelay', application_password: PASSWORD, ...extra },
      org.key,
    )
  return { ts, wp, org, clientId, connect, lines }
}

const secretForms = [PASSWORD, PASSWORD.replace(/ /g, ''), Buffer.from(`rankrelay:${PASSWORD.replace(/ /g, '')}`).toString('base64')]

t.test('connect: the check first, its findings recorded, the password sealed and never answered', async (t) => {
  const { ts, wp, org, clientId, connect, lines } = await setup(t)
  t.same(await ts.call('get_client_wordpress', { client_id: clientId }, org.key), null, 'not connected yet')
  t.same(await ts.call('get_plugin_states', {}, org.key), [])

  const response = await connect()
  t.equal(response.statusCode, 200, response.body)
  const connection = response.json().result
  t.match(connection, {
    client_id: clientId,
    base_url: wp.url,
    username: 'rankrelay',
    has_application_password: true,
    verified: true,
    last_check: {
      ok: true,
      site_name: 'Harbor Street Bakery',
      wp_version: '6.6.2',
      theme: { stylesheet: 'astra', name: 'Astra', version: '4.8.3' },
      seo_plugin: 'yoast',
      redirection: true,
      elementor: true,
      user: { name: String, slug: String, roles: ['administrator'] },
      error_category: null,
      error: null,
    },
  })
  t.same(connection.last_check.plugins.map((p: { plugin: string; status: string }) => [p.plugin, p.status]).sort(), [
    ['akismet/akismet', 'inactive'],
    ['elementor/elementor', 'active'],
    ['redirection/redirection', 'active'],
    ['seo-by-rank-math/rank-math', 'inactive'],
    ['wordpress-seo/wp-seo', 'active'],
  ])
  t.same(await ts.call('get_client_wordpress', { client_id: clientId }, org.key), connection, 'read back the same')
  t.ok(
    wp.requests.some((r) => r.auth === 'valid'),
    'the stand-in saw the application password',
  )

  const states = await ts.call<any[]>('get_plugin_states', {}, org.key)
  t.match(states, [
    {
      client_id: clientId,
      org_id: org.orgId,
      base_url: wp.url,
      check_ok: true,
      wp_version: '6.6.2',
      plugins: {
        seo: { kind: 'yoast', installed: true, active: true, version: '23.5' },
        redirection: { installed: true, active: true, version: '5.5.0' },
        elementor: { installed: true, active: true, version: '3.24.4' },
      },
    },
  ])
  t.equal(
    (await ts.call<any[]>('get_plugin_states', { org_id: org.orgId }, ts.platformKey)).length,
    1,
    'a platform key names the organization',
  )
  t.ok(
    (await ts.call<any[]>('get_plugin_states', {}, ts.platformKey)).some((s) => s.client_id === clientId),
    'or sees every organization',
  )

  const events = await streamEvents(ts, `site_connection-${clientId}`)
  t.same(
    events.map((e) => e.type),
    ['SiteConnectionWordPressSet', 'SiteConnectionCheckRecorded'],
  )
  t.equal(unseal(TEST_SERVICE_KEY, events[0]!.data.application_password_sealed), PASSWORD, 'sealed with the service key')
  t.same(await loadWordPressCredentials(ts.system.write, clientId, TEST_SERVICE_KEY), {
    baseUrl: wp.url,
    username: 'rankrelay',
    applicationPassword: PASSWORD,
  })

  const month = new Date().toISOString().slice(0, 7)
  const everything = JSON.stringify([
    connection,
    states,
    events.map((e) => ({ ...e.data, application_password_sealed: undefined })),
    await ts.call('get_entity_changes', { client_id: clientId, month }, org.key),
    await ts.call('get_entity_history', { entity_type: 'client', entity_id: clientId }, org.key),
    lines,
  ])
  for (const secret of secretForms) t.notOk(everything.includes(secret), 'no form of the password in answers, events, history or log lines')
  t.notOk(everything.includes(events[0]!.data.application_password_sealed), 'nor its sealed form outside the log')
})

t.test('a wrong password: a coded 4xx and nothing recorded, unless saved unverified', async (t) => {
  const { ts, org, clientId, connect } = await setup(t)
  const refused = expectError(t, await connect({ application_password: 'wrong pass word 0000' }), 422, 'site_check_failed')
  t.match(refused.detail, /^auth: .*incorrect_password/, 'detail names the category and what WordPress said')
  t.notOk(refused.detail?.includes('wrong pass word'), 'the password is not echoed')
  t.same(await streamEvents(ts, `site_connection-${clientId}`), [], 'nothing recorded')
  t.same(await ts.call('get_client_wordpress', { client_id: clientId }, org.key), null)

  const saved = await connect({ application_password: 'wrong pass word 0000', save_unverified: true })
  t.equal(saved.statusCode, 200, saved.body)
  t.match(saved.json().result, { verified: false, last_check: { ok: false, error_category: 'auth', plugins: null } })
  t.match(await ts.call('get_plugin_states', {}, org.key), [{ client_id: clientId, check_ok: false, plugins: null }])
})

t.test('an address that is or resolves to a private one is refused, even unverified, and nothing is sent', async (t) => {
  const { ts, wp, clientId, connect } = await setup(t)
  const before = wp.requests.length
  for (const [base_url, what] of [
    ['https://private.example.com', 'a name resolving to 10.1.2.3'],
    ['http://192.168.1.20', 'a private literal'],
    ['http://169.254.169.254/latest', 'link-local (cloud metadata)'],
  ] as const) {
    const refused = expectError(t, await connect({ base_url }), 400, 'site_url_refused', what)
    t.match(refused.detail, /address policy/, `${what}: detail names the policy`)
    expectError(t, await connect({ base_url, save_unverified: true }), 400, 'site_url_refused', `${what}, unverified`)
  }
  expectError(t, await connect({ base_url: 'ftp://example.com' }), 400, 'validation_failed', 'not http(s)')
  expectError(t, await connect({ base_url: `http://u:p@127.0.0.1:1` }), 400, 'validation_failed', 'credentials in the URL')
  t.equal(wp.requests.length, before, 'the stand-in saw nothing')
  t.same(await streamEvents(ts, `site_connection-${clientId}`), [], 'nothing recorded')
})

t.test('checks: ok and failing ones are recorded; removal; a check without a connection', async (t) => {
  const { ts, wp, org, clientId, connect } = await setup(t)
  t.equal((await connect()).statusCode, 200)
  wp.site.setRoles(['editor'])
  const editor = await ts.call<any>('check_client_connection', { client_id: clientId }, org.key)
  t.match(editor, { ok: true, plugins: null, seo_plugin: 'yoast', user: { roles: ['editor'] } }, 'an Editor may not list plugins')
  t.match(await ts.call('get_plugin_states', {}, org.key), [
    { plugins: { seo: { kind: 'yoast', installed: null, active: true, version: null }, redirection: { installed: null } } },
  ])

  wp.site.inject({ kind: 'html' }, { times: 10 })
  const html = await ts.call<any>('check_client_connection', { client_id: clientId }, org.key)
  t.match(html, { ok: false, error_category: 'invalid_response', error: /HTML/i, wp_version: null })
  wp.site.clearFaults()
  t.match(await ts.call('get_client_wordpress', { client_id: clientId }, org.key), { verified: true, last_check: { ok: false } })
  t.equal((await streamEvents(ts, `site_connection-${clientId}`)).length, 4, 'every check recorded')

  t.same(await ts.call('remove_client_wordpress', { client_id: clientId }, org.key), { client_id: clientId, removed: true })
  t.same(await ts.call('remove_client_wordpress', { client_id: clientId }, org.key), { client_id: clientId, removed: false })
  t.same(await ts.call('get_client_wordpress', { client_id: clientId }, org.key), null)
  t.same(await ts.call('get_plugin_states', {}, org.key), [])
  t.equal(await loadWordPressCredentials(ts.system.write, clientId, TEST_SERVICE_KEY), null)
  expectError(t, await ts.rpc('check_client_connection', { client_id: clientId }, org.key), 409, 'site_not_connected')
})
