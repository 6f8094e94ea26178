/**
 * Bad input is refused with a coded error and changes nothing: the log (es_events) holds exactly as many
 * events after each refused request as before it.
 */
import t from 'tap'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, rawRpc, type OrgWithKey } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]): Promise<{ ts: TestSystem; org: OrgWithKey; clientId: number }> {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>(
    'add_client',
    clientPayload('Plumbers', { slug: 'plumbers', services: ['Drains'], locations: ['Austin, TX'] }),
    org.key,
  )
  return { ts, org, clientId }
}

/** The client as its owner sees it, with the read-model row counts that a write would move. */
async function state(ts: TestSystem, key: string, clientId: number) {
  return {
    events: await eventCount(ts),
    client: await ts.call('get_client', { client_id: clientId }, key),
    settings: await ts.call('get_all_client_settings', { client_id: clientId }, key),
    clients: await ts.call('get_all_clients', { include_deleted: true }, key),
  }
}

t.test('parameters that fail validation answer 400 validation_failed naming the field, and change nothing', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const before = await state(ts, org.key, clientId)

  const cases: { what: string; method: string; body: unknown; field: RegExp; platform?: true }[] = [
    // wrong types
    {
      what: 'client.name a number',
      method: 'add_client',
      body: { client: { name: 123, website_url: 'https://x.example.com' } },
      field: /client\.name/,
    },
    { what: 'client a string', method: 'add_client', body: { client: 'Plumbers' }, field: /client/ },
    { what: 'client_id a string', method: 'update_client', body: { client_id: String(clientId), name: 'X' }, field: /client_id/ },
    {
      what: 'client_id a float',
      method: 'set_client_setting',
      body: { client_id: clientId + 0.5, key: 'k', value: 'v' },
      field: /client_id/,
    },
    { what: 'client_id negative', method: 'set_client_status', body: { client_id: -clientId, status: 'paused' }, field: /client_id/ },
    { what: 'client_id zero', method: 'delete_locations_for_client', body: { client_id: 0 }, field: /client_id/ },
    { what: 'client_id huge', method: 'update_client', body: { client_id: 2 ** 60, name: 'X' }, field: /client_id/ },
    { what: 'status not a status', method: 'set_client_status', body: { client_id: clientId, status: 'archived' }, field: /status/ },
    { what: 'value a number', method: 'set_client_setting', body: { client_id: clientId, key: 'k', value: 5 }, field: /value/ },
    {
      what: 'settings value a number',
      method: 'add_client',
      body: clientPayload('Bad settings', { settings: { tier: 1 } }),
      field: /settings/,
    },
    { what: 'services not an array', method: 'add_client', body: clientPayload('Bad services', { services: 'SEO' }), field: /services/ },
    { what: 'include_deleted a string', method: 'get_all_clients', body: { include_deleted: 'yes' }, field: /include_deleted/ },
    { what: 'org_id a string', method: 'add_client', body: { ...clientPayload('X'), org_id: 'mine' }, field: /org_id/ },
    { what: 'scopes a list', method: 'create_api_key', body: { name: 'k', scopes: ['read'] }, field: /scopes/ },
    {
      what: 'limit too large',
      method: 'get_entity_history',
      body: { entity_type: 'client', entity_id: clientId, limit: 5000 },
      field: /limit/,
    },
    { what: 'entity_type unknown', method: 'get_entity_history', body: { entity_type: 'user', entity_id: 1 }, field: /entity_type/ },
    { what: 'as_of not a time', method: 'get_client', body: { client_id: clientId, as_of: 'yesterday' }, field: /as_of/ },
    // values a schema refuses
    {
      what: 'website_url not http(s)',
      method: 'add_client',
      body: clientPayload('Ftp', { website_url: 'ftp://files.example.com' }),
      field: /website_url/,
    },
    {
      what: 'website_url not a URL',
      method: 'update_client',
      body: { client_id: clientId, website_url: 'plumbers' },
      field: /website_url/,
    },
    { what: 'slug with capitals and spaces', method: 'add_client', body: clientPayload('Slug', { slug: 'Bad Slug' }), field: /slug/ },
    { what: 'slug with a double hyphen', method: 'update_client', body: { client_id: clientId, slug: 'a--b' }, field: /slug/ },
    { what: 'empty name', method: 'update_client', body: { client_id: clientId, name: '   ' }, field: /name/ },
    { what: 'name too long', method: 'add_client', body: clientPayload('x'.repeat(201)), field: /name/ },
    {
      what: 'setting key with spaces',
      method: 'set_client_setting',
      body: { client_id: clientId, key: 'bad key', value: 'v' },
      field: /key/,
    },
    { what: 'location without any part', method: 'add_location', body: { location: { client_id: clientId } }, field: /location/ },
    // missing required fields
    { what: 'no client', method: 'add_client', body: {}, field: /client/ },
    { what: 'no website_url', method: 'add_client', body: { client: { name: 'Half' } }, field: /website_url/ },
    { what: 'no client_id', method: 'update_client', body: { name: 'X' }, field: /client_id/ },
    { what: 'no status', method: 'set_client_status', body: { client_id: clientId }, field: /status/ },
    { what: 'no value', method: 'set_client_setting', body: { client_id: clientId, key: 'k' }, field: /value/ },
    { what: 'no service name', method: 'add_service', body: { service: { client_id: clientId } }, field: /service\.name/ },
    { what: 'no key_id', method: 'revoke_api_key', body: {}, field: /key_id/ },
    { what: 'no name', method: 'create_organization', body: {}, field: /name/, platform: true },
    { what: 'empty org name', method: 'create_organization', body: { name: '' }, field: /name/, platform: true },
    // unknown parameters: params are strict, at the top and inside payload objects
    { what: 'unknown top-level parameter', method: 'add_client', body: { ...clientPayload('Extra'), colour: 'red' }, field: /colour/ },
    { what: 'unknown client field', method: 'add_client', body: clientPayload('Extra', { colour: 'red' }), field: /colour/ },
    {
      what: 'unknown service field',
      method: 'add_service',
      body: { service: { client_id: clientId, name: 'X', price: 5 } },
      field: /price/,
    },
    {
      what: 'unknown location field',
      method: 'add_location',
      body: { location: { client_id: clientId, city: 'X', zip: '1' } },
      field: /zip/,
    },
    {
      what: 'unknown field on a write',
      method: 'update_client',
      body: { client_id: clientId, name: 'X', status: 'deleted' },
      field: /status/,
    },
    { what: 'unknown field on a read', method: 'get_client', body: { client_id: clientId, verbose: true }, field: /verbose/ },
    { what: 'camelCase parameter', method: 'get_client', body: { clientId }, field: /client/ },
  ]

  for (const c of cases) {
    const response = await ts.rpc(c.method, c.body, c.platform ? ts.platformKey : org.key)
    const body = expectError(t, response, 400, 'validation_failed', c.what)
    t.match(body.detail ?? '', c.field, `${c.what}: detail names the field (${body.detail})`)
    t.ok(body.hint, `${c.what}: carries a hint`)
    t.equal(await eventCount(ts), before.events, `${c.what}: no event appended`)
  }
  t.same(await state(ts, org.key, clientId), before, 'nothing changed')
})

t.test('unknown records answer 404 and change nothing', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const before = await state(ts, org.key, clientId)
  const missing = clientId + 10_000
  const writes: [string, unknown][] = [
    ['update_client', { client_id: missing, name: 'Ghost' }],
    ['set_client_status', { client_id: missing, status: 'deleted' }],
    ['set_client_setting', { client_id: missing, key: 'tier', value: 'gold' }],
    ['add_service', { service: { client_id: missing, name: 'Ghost service' } }],
    ['add_location', { location: { client_id: missing, name: 'Ghost Town, NV' } }],
    ['delete_locations_for_client', { client_id: missing }],
    ['revoke_api_key', { key_id: org.keyId + 10_000 }],
  ]
  for (const [method, body] of writes) {
    expectError(t, await ts.rpc(method, body, org.key), 404, 'not_found', method)
    t.equal(await eventCount(ts), before.events, `${method}: no event appended`)
  }
  // A platform key naming a missing organization: not found, nothing created.
  expectError(
    t,
    await ts.rpc('add_client', { ...clientPayload('Nowhere'), org_id: org.orgId + 10_000 }),
    404,
    'not_found',
    'add_client to a missing org',
  )
  expectError(t, await ts.rpc('create_api_key', { name: 'k', org_id: org.orgId + 10_000 }), 404, 'not_found', 'key for a missing org')
  t.same(await state(ts, org.key, clientId), before, 'nothing changed')
})

t.test('malformed bodies are refused before anything runs', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const before = await state(ts, org.key, clientId)
  const auth = { authorization: `Bearer ${org.key}` }
  const json = { ...auth, 'content-type': 'application/json' }

  // Malformed JSON.
  for (const payload of ['{"client": ', '{client: {}}', "{'a': 1}", '{"a": 1,}', 'undefined', '{"a": NaN}']) {
    const body = expectError(t, await rawRpc(ts, 'add_client', payload, json), 400, 'invalid_json', `malformed ${payload}`)
    t.match(body.hint ?? '', /JSON/, `${payload}: hint`)
    t.equal(await eventCount(ts), before.events, `malformed ${payload}: no event appended`)
  }
  // JSON that is not an object of parameters.
  for (const payload of ['[1, 2]', '[]', '"add"', '42', 'true']) {
    const body = expectError(t, await rawRpc(ts, 'add_client', payload, json), 400, 'validation_failed', `JSON ${payload}`)
    t.match(body.detail ?? '', /object/, `${payload}: detail says an object is expected`)
    t.equal(await eventCount(ts), before.events, `JSON ${payload}: no event appended`)
  }
  // An array that carries a valid client is still not a parameter object.
  expectError(
    t,
    await rawRpc(ts, 'add_client', JSON.stringify([clientPayload('In array')]), json),
    400,
    'validation_failed',
    'array of payloads',
  )

  // Non-JSON content types.
  for (const type of ['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'image/png']) {
    const body = expectError(
      t,
      await rawRpc(ts, 'add_client', JSON.stringify(clientPayload('Typed')), { ...auth, 'content-type': type }),
      415,
      'unsupported_media_type',
      type,
    )
    t.match(body.hint ?? '', /application\/json/, `${type}: hint names JSON`)
    t.equal(await eventCount(ts), before.events, `${type}: no event appended`)
  }

  t.same(await state(ts, org.key, clientId), before, 'nothing changed')
})

t.test('a text/plain body is refused as an unsupported media type', async (t) => {
  const { ts, org } = await setup(t)
  const before = await eventCount(ts)
  const response = await rawRpc(ts, 'add_client', JSON.stringify(clientPayload('Plain')), {
    authorization: `Bearer ${org.key}`,
    'content-type': 'text/plain',
  })
  expectError(t, response, 415, 'unsupported_media_type')
  t.equal(await eventCount(ts), before, 'nothing appended')
})

t.test('an oversized body answers 413 body_too_large and changes nothing', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const before = await state(ts, org.key, clientId)
  const limit = 1024 * 1024
  const json = { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' }

  // A valid add_client padded with a long setting value to just over 1 MiB.
  const padded = (size: number) => {
    const base = JSON.stringify(clientPayload('Huge', { settings: { notes: '' } }))
    return base.replace('"notes":""', `"notes":"${'x'.repeat(size - base.length)}"`)
  }
  const over = padded(limit + 1)
  t.equal(Buffer.byteLength(over), limit + 1, 'the body is one byte over 1 MiB')
  const body = expectError(t, await rawRpc(ts, 'add_client', over, json), 413, 'body_too_large')
  t.match(body.detail ?? '', /1048576/, 'detail names the limit')
  expectError(t, await rawRpc(ts, 'add_client', padded(3 * limit), json), 413, 'body_too_large', '3 MiB')
  // Without credentials the size is still refused (nothing is read or stored either way).
  expectError(t, await rawRpc(ts, 'add_client', over, { 'content-type': 'application/json' }), 413, 'body_too_large', 'no key')
  t.same(await state(ts, org.key, clientId), before, 'nothing changed')

  // At the limit the body is read; it then fails only on the setting's own 10 000-character bound.
  const atLimit = padded(limit)
  t.equal(Buffer.byteLength(atLimit), limit)
  expectError(t, await rawRpc(ts, 'add_client', atLimit, json), 400, 'validation_failed', 'exactly 1 MiB')
  t.same(await state(ts, org.key, clientId), before, 'still nothing changed')
})

t.test('an empty body is an empty parameter object', async (t) => {
  const { ts, org } = await setup(t)
  const auth = { authorization: `Bearer ${org.key}` }
  const empty = await rawRpc(ts, 'count_active_clients', '', { ...auth, 'content-type': 'application/json' })
  t.equal(empty.statusCode, 200)
  t.same(empty.json(), { result: 1 })
  const none = await rawRpc(ts, 'count_active_clients', undefined, auth)
  t.equal(none.statusCode, 200, 'no body and no content type')
  t.same(none.json(), { result: 1 })
  // ...which a method with required parameters refuses.
  expectError(t, await rawRpc(ts, 'add_client', '', { ...auth, 'content-type': 'application/json' }), 400, 'validation_failed')
})

t.test('a refused request inside a valid one changes nothing: conflicts and deleted clients', async (t) => {
  const { ts, org, clientId } = await setup(t)
  await ts.call('set_client_status', { client_id: clientId, status: 'deleted' }, org.key)
  await ts.call<number>('add_client', clientPayload('Other', { slug: 'other' }), org.key)
  const third = await ts.call<number>('add_client', clientPayload('Third', { slug: 'third' }), org.key)
  const before = await state(ts, org.key, clientId)
  expectError(t, await ts.rpc('update_client', { client_id: clientId, name: 'Zombie' }, org.key), 409, 'client_deleted')
  expectError(t, await ts.rpc('set_client_setting', { client_id: clientId, key: 'k', value: 'v' }, org.key), 409, 'client_deleted')
  expectError(t, await ts.rpc('add_client', clientPayload('Dup', { slug: 'other' }), org.key), 409, 'slug_taken')
  // A request that would change two fields, one of them refused, changes neither.
  expectError(t, await ts.rpc('update_client', { client_id: third, name: 'Third renamed', slug: 'other' }, org.key), 409, 'slug_taken')
  t.same(await state(ts, org.key, clientId), before, 'nothing changed')
  t.equal((await ts.call('get_client', { client_id: third }, org.key)).name, 'Third', 'the name did not change either')
})
