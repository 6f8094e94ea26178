/**
 * Site connections, pure: the aggregate (WordPress set only after a passing check unless saved unverified, a
 * check needs a connection, FTP keeps or drops its password, one SSH key unless rotated, the notification URL,
 * repeats that record nothing), the base URL's normal form, the relied-on plugins read from a check, and
 * every secret field hidden from history and kept out of replays and exports.
 */
import t from 'tap'
import { isSecretField } from '../../domain/exports/secret-columns.js'
import { normalizeBaseUrl } from '../../domain/publishing/connections/base-url.js'
import { siteConnectionsEventSchemas, type SiteConnectionEvent } from '../../domain/publishing/connections/events.js'
import { pluginStatesOf } from '../../domain/publishing/connections/plugin-states.js'
import { type SiteCheckInput, siteConnection, siteConnectionStream } from '../../domain/publishing/connections/site-connection.js'
import { isHiddenField } from '../../domain/shared/hidden-fields.js'
import { actionOf } from '../../domain/monitoring/entity-changes/actions.js'
import { spec } from './given-when-then.js'

const BASE = 'https://acme.example.com'
const passing: SiteCheckInput = {
  ok: true,
  base_url: BASE,
  site_name: 'Acme',
  wp_version: '6.7.1',
  theme: { stylesheet: 'astra', name: 'Astra', version: '4.8.3' },
  plugins: [
    { plugin: 'wordpress-seo/wp-seo', name: 'Yoast SEO', version: '23.5', status: 'active' },
    { plugin: 'redirection/redirection', name: 'Redirection', version: '5.5.0', status: 'inactive' },
  ],
  seo_plugin: 'yoast',
  redirection: false,
  elementor: false,
  user: { id: 1, name: 'Editor', slug: 'editor', roles: ['administrator'] },
  error_category: null,
  error: null,
}
const failing: SiteCheckInput = {
  ...passing,
  ok: false,
  site_name: null,
  wp_version: null,
  theme: null,
  plugins: null,
  seo_plugin: null,
  user: null,
  error_category: 'auth',
  error: 'GET /wp/v2/users/me: 401 incorrect_password',
}

const setWordPress = (check: SiteCheckInput | null, save_unverified = false) =>
  ({
    type: 'SetWordPress',
    client_id: 7,
    base_url: BASE,
    username: 'editor',
    application_password_sealed: 'v1.k.sealed',
    check,
    save_unverified,
  }) as const
const wordPressSet = (verified: boolean): SiteConnectionEvent => ({
  type: 'SiteConnectionWordPressSet',
  data: { client_id: 7, base_url: BASE, username: 'editor', application_password_sealed: 'v1.k.sealed', verified },
})
const checked = (check: SiteCheckInput): SiteConnectionEvent => ({ type: 'SiteConnectionCheckRecorded', data: { client_id: 7, ...check } })
const ftpSet = (password_sealed: string | null, port = 22): SiteConnectionEvent => ({
  type: 'SiteConnectionFtpSet',
  data: { client_id: 7, protocol: 'sftp', host: 'sftp.acme.example.com', port, username: 'acme', password_sealed, root_path: '/' },
})
const setFtp = (password_sealed: string | null | undefined, port = 22, username = 'acme') =>
  ({
    type: 'SetFtp',
    client_id: 7,
    protocol: 'sftp',
    host: 'sftp.acme.example.com',
    port,
    username,
    password_sealed,
    root_path: '/',
  }) as const
const keyCommand = (n: number, rotate = false) =>
  ({
    type: 'CreateSshKey',
    client_id: 7,
    public_key: `ssh-ed25519 K${n}`,
    fingerprint: `SHA256:f${n}`,
    private_key_sealed: `v1.k.p${n}`,
    rotate,
  }) as const
const keyCreated = (n: number, replaced: string | null): SiteConnectionEvent => ({
  type: 'SiteConnectionSshKeyCreated',
  data: {
    client_id: 7,
    public_key: `ssh-ed25519 K${n}`,
    fingerprint: `SHA256:f${n}`,
    private_key_sealed: `v1.k.p${n}`,
    replaced_fingerprint: replaced,
  },
})

t.test('WordPress: set after a passing check, refused after a failing one unless saved unverified; checks need a connection', async (t) => {
  const given = spec(siteConnection)
  t.equal(siteConnectionStream(7), 'site_connection-7')
  given()
    .when(setWordPress(passing))
    .then(t, [wordPressSet(true), checked(passing)])
  const refused = given().when(setWordPress(failing)).thenThrows(t, 'site_check_failed')
  t.match(refused?.detail, /^auth: .*incorrect_password/, 'the detail names the category and what the site said')
  given().when(setWordPress(null)).thenThrows(t, 'site_check_failed')
  given()
    .when(setWordPress(failing, true))
    .then(t, [wordPressSet(false), checked(failing)])
  given().when({ type: 'RecordCheck', client_id: 7, check: passing }).thenThrows(t, 'site_not_connected')
  given(wordPressSet(true))
    .when({ type: 'RecordCheck', client_id: 7, check: failing })
    .then(t, [checked(failing)])
  given().when({ type: 'RemoveWordPress', client_id: 7 }).thenNothingHappens(t)
  given(wordPressSet(true), checked(passing))
    .when({ type: 'RemoveWordPress', client_id: 7 })
    .then(t, [{ type: 'SiteConnectionWordPressRemoved', data: { client_id: 7 } }])
  given(wordPressSet(true), { type: 'SiteConnectionWordPressRemoved', data: { client_id: 7 } })
    .when({ type: 'RecordCheck', client_id: 7, check: passing })
    .thenThrows(t, 'site_not_connected')
})

t.test('FTP: the password kept for the same account, dropped for another; repeats record nothing', async (t) => {
  const given = spec(siteConnection)
  given()
    .when(setFtp('v1.k.pw'))
    .then(t, [ftpSet('v1.k.pw')])
  given(ftpSet('v1.k.pw')).when(setFtp(undefined)).thenNothingHappens(t)
  given(ftpSet('v1.k.pw'))
    .when(setFtp(undefined, 2222))
    .then(t, [ftpSet('v1.k.pw', 2222)])
  given(ftpSet('v1.k.pw'))
    .when(setFtp(undefined, 22, 'other'))
    .then(t, [{ type: 'SiteConnectionFtpSet', data: { ...(ftpSet(null).data as object), username: 'other' } as never }])
  given(ftpSet('v1.k.pw'))
    .when(setFtp(null))
    .then(t, [ftpSet(null)])
  given().when({ type: 'ClearFtp', client_id: 7 }).thenNothingHappens(t)
  given(ftpSet(null))
    .when({ type: 'ClearFtp', client_id: 7 })
    .then(t, [{ type: 'SiteConnectionFtpCleared', data: { client_id: 7 } }])
})

t.test('the SSH key: one per client, replaced only on rotate; the notification URL', async (t) => {
  const given = spec(siteConnection)
  given()
    .when(keyCommand(1))
    .then(t, [keyCreated(1, null)])
  given(keyCreated(1, null)).when(keyCommand(2)).thenNothingHappens(t)
  given(keyCreated(1, null))
    .when(keyCommand(2, true))
    .then(t, [keyCreated(2, 'SHA256:f1')])
  given().when({ type: 'SetWebhook', client_id: 7, url: null }).thenNothingHappens(t)
  const hook: SiteConnectionEvent = { type: 'SiteConnectionWebhookSet', data: { client_id: 7, url: 'https://h.example.com/' } }
  given().when({ type: 'SetWebhook', client_id: 7, url: 'https://h.example.com/' }).then(t, [hook])
  given(hook).when({ type: 'SetWebhook', client_id: 7, url: 'https://h.example.com/' }).thenNothingHappens(t)
  given(hook)
    .when({ type: 'SetWebhook', client_id: 7, url: null })
    .then(t, [{ type: 'SiteConnectionWebhookSet', data: { client_id: 7, url: null } }])
})

t.test('the base URL: http(s), no credentials, no /wp-json, no trailing slash, a sub-folder kept', async (t) => {
  t.equal(normalizeBaseUrl(' https://Acme.example.com/ '), 'https://acme.example.com')
  t.equal(normalizeBaseUrl('https://acme.example.com/wp-json/'), 'https://acme.example.com')
  t.equal(normalizeBaseUrl('https://acme.example.com/blog/wp-json?x=1#y'), 'https://acme.example.com/blog')
  t.equal(normalizeBaseUrl('http://127.0.0.1:8080'), 'http://127.0.0.1:8080')
  for (const bad of ['acme.example.com', 'ftp://acme.example.com', 'https://u:p@acme.example.com', 'javascript:alert(1)']) {
    t.throws(() => normalizeBaseUrl(bad), { code: 'validation_failed' }, bad)
  }
})

t.test('the relied-on plugins from a check', async (t) => {
  t.same(pluginStatesOf(passing), {
    seo: { kind: 'yoast', installed: true, active: true, version: '23.5' },
    redirection: { installed: true, active: false, version: '5.5.0' },
    elementor: { installed: false, active: false, version: null },
  })
  // Without a plugin list (an Editor may not list plugins): what the REST API showed active; installed unknown.
  t.same(pluginStatesOf({ plugins: null, seo_plugin: 'rank_math', redirection: true, elementor: false }), {
    seo: { kind: 'rank_math', installed: null, active: true, version: null },
    redirection: { installed: null, active: true, version: null },
    elementor: { installed: null, active: false, version: null },
  })
  t.same(pluginStatesOf({ plugins: [], seo_plugin: null, redirection: false, elementor: false }).seo, {
    kind: null,
    installed: false,
    active: false,
    version: null,
  })
})

t.test('every secret field is hidden from history and kept out of replays and exports; every type has an auditor action', async (t) => {
  const secret = ['application_password_sealed', 'password_sealed', 'private_key_sealed']
  for (const [type, schema] of Object.entries(siteConnectionsEventSchemas)) {
    t.not(actionOf(type), 'other', `${type} has an auditor action`)
    for (const field of Object.keys(schema.shape)) {
      if (secret.includes(field)) {
        t.ok(isHiddenField(field), `${type}.${field} is hidden from history`)
        t.ok(isSecretField(type, field), `${type}.${field} is left out of replays`)
      } else {
        t.notOk(isHiddenField(field), `${type}.${field} is shown`)
      }
    }
  }
})
