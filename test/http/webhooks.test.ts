/**
 * Webhook RPCs: register (secret shown once, sealed in the log), list (a hint, never the secret), update,
 * rotate, delete; the URL policy and event names at registration; another organization's webhook answers
 * exactly like a missing one.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey, withoutIds } from './helpers.js'
import { LOOPBACK_ALLOWED, TEST_SERVICE_KEY } from './webhooks-helpers.js'

t.test('webhook lifecycle over the RPCs', async (t) => {
  const ts = await startTestSystem(t, {
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, resolve: async () => ['93.184.216.34'] },
  })
  const acme = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')

  const created = await ts.call(
    'register_webhook',
    { url: 'https://hooks.example.com/in', events: ['job.completed', 'job.completed'], description: 'CRM' },
    acme.key,
  )
  t.match(created, { url: 'https://hooks.example.com/in', events: ['job.completed'], description: 'CRM' }, 'duplicates dropped')
  t.match(created.secret, /^whsec_[A-Za-z0-9_-]{43}$/, 'the secret is shown once')

  const log = await ts.system.database.db
    .selectFrom('es_events' as any)
    .selectAll()
    .execute()
  t.notOk(JSON.stringify(log).includes(created.secret), 'the plaintext secret is nowhere in the log')

  const [listed] = await ts.call<any[]>('list_webhooks', {}, acme.key)
  t.match(listed, {
    id: created.id,
    active: true,
    failure_count: 0,
    secret_hint: `${created.secret.slice(0, 10)}…`,
    events: ['job.completed'],
  })
  t.notOk(JSON.stringify(listed).includes(created.secret), 'the listing carries no secret')
  t.same(await ts.call('list_webhooks', {}, other.key), [], 'another organization sees none')

  const updated = await ts.call('update_webhook', { webhook_id: created.id, events: null, active: false }, acme.key)
  t.match(updated, { events: null, active: false, disabled_reason: 'update_webhook', url: 'https://hooks.example.com/in' })

  const rotated = await ts.call('rotate_webhook_secret', { webhook_id: created.id }, acme.key)
  t.not(rotated.secret, created.secret, 'a new secret')
  t.equal((await ts.call<any[]>('list_webhooks', {}, acme.key))[0].secret_hint, `${rotated.secret.slice(0, 10)}…`)

  const missing = await ts.rpc('delete_webhook', { webhook_id: 999999 }, acme.key)
  const foreign = await ts.rpc('delete_webhook', { webhook_id: created.id }, other.key)
  expectError(t, missing, 404, 'not_found')
  expectError(t, foreign, 404, 'not_found')
  t.same(
    withoutIds(foreign.json(), [created.id]),
    withoutIds(missing.json(), [999999]),
    "another organization's webhook answers like a missing one",
  )
  t.same(await ts.call('delete_webhook', { webhook_id: created.id }, acme.key), { id: created.id, deleted: true })
  t.same(await ts.call('list_webhooks', {}, acme.key), [], 'deleted webhooks are gone')
  expectError(t, await ts.rpc('update_webhook', { webhook_id: created.id, active: true }, acme.key), 404, 'not_found')

  expectError(
    t,
    await ts.rpc('register_webhook', { url: 'https://hooks.example.com/in', events: ['job.exploded'] }, acme.key),
    400,
    'webhook_event_unknown',
  )
  expectError(
    t,
    await ts.rpc('register_webhook', { url: 'https://hooks.example.com/in', events: ['ping'] }, acme.key),
    400,
    'webhook_event_unknown',
  )
  expectError(t, await ts.rpc('register_webhook', { url: 'http://hooks.example.com/in' }, acme.key), 400, 'webhook_url_refused')
  expectError(t, await ts.rpc('register_webhook', { url: 'https://10.0.0.1/in' }, acme.key), 400, 'webhook_url_refused')
  expectError(t, await ts.rpc('register_webhook', { url: 'https://hooks.example.com/in' }), 400, 'org_id_required')
  const viaPlatform = await ts.call('register_webhook', { url: 'https://hooks.example.com/p', org_id: acme.orgId })
  t.ok(viaPlatform.id, 'a platform key registers for the organization it names')
  const readOnly = await orgWithKey(ts, 'Reader', 'read')
  expectError(t, await ts.rpc('register_webhook', { url: 'https://hooks.example.com/in' }, readOnly.key), 403, 'insufficient_scope')
})

t.test('a name that resolves to a private address is refused at registration', async (t) => {
  const ts = await startTestSystem(t, {
    webhooks: {
      serviceKey: TEST_SERVICE_KEY,
      resolve: async (host) => (host === 'rebind.example.com' ? ['93.184.216.34', '10.1.2.3'] : ['127.0.0.1']),
    },
  })
  const acme = await orgWithKey(ts, 'Acme')
  const mixed = expectError(
    t,
    await ts.rpc('register_webhook', { url: 'https://rebind.example.com/' }, acme.key),
    400,
    'webhook_url_refused',
  )
  t.match(mixed.detail, /10\.1\.2\.3 is in a private range/)
  const loop = expectError(t, await ts.rpc('register_webhook', { url: 'https://loop.example.com/' }, acme.key), 400, 'webhook_url_refused')
  t.match(loop.detail, /loopback/)
})

t.test('an IPv4-compatible IPv6 address is judged as the IPv4 address it carries, literal or resolved', async (t) => {
  const ts = await startTestSystem(t, { webhooks: { serviceKey: TEST_SERVICE_KEY, resolve: async () => ['::a9fe:a9fe'] } })
  const acme = await orgWithKey(ts, 'Acme')
  for (const url of ['https://[::127.0.0.1]/', 'https://[::a9fe:a9fe]/', 'https://[::10.0.0.1]/']) {
    const error = expectError(t, await ts.rpc('register_webhook', { url }, acme.key), 400, 'webhook_url_refused')
    t.match(error.detail, /is in a (loopback|linkLocal|private) range/, `${url}: ${error.detail}`)
  }
  const named = expectError(
    t,
    await ts.rpc('register_webhook', { url: 'https://metadata.example.com/' }, acme.key),
    400,
    'webhook_url_refused',
  )
  t.match(named.detail, /169\.254\.169\.254 is in a linkLocal range/)
  t.same(await ts.call('list_webhooks', {}, acme.key), [], 'nothing registered')
})
