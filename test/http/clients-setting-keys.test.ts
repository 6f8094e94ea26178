/**
 * Setting keys that are also names of Object.prototype members: `__proto__`,
 * `constructor` and `prototype` are ordinary setting keys, stored and read back the same way whether they
 * come with add_client or with set_client_setting. (A parameter schema that builds its output by
 * assignment would drop `__proto__` silently: assignment sets the prototype instead of a key.)
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey, streamEvents } from './helpers.js'

const RESERVED = ['__proto__', 'constructor', 'prototype'] as const

/** The settings as the wire shows them: own keys of the parsed JSON, sorted (JSON.parse keeps `__proto__` as a key). */
function keysOf(settings: Record<string, string>): [string, string][] {
  return Object.entries(settings).sort(([a], [b]) => a.localeCompare(b))
}

t.test('add_client stores __proto__, constructor and prototype settings like any other key', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  // Raw JSON, so that the request really carries a "__proto__" key (an object literal would set a prototype).
  const body =
    '{"client":{"name":"Proto Co","website_url":"https://proto.example.com","settings":{"__proto__":"a","constructor":"b","prototype":"c","tier":"gold"}}}'
  const response = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/add_client',
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    payload: body,
  })
  t.equal(response.statusCode, 200, response.body)
  const clientId = response.json().result as number

  const settings = await ts.call<Record<string, string>>('get_all_client_settings', { client_id: clientId }, org.key)
  t.same(
    keysOf(settings),
    [
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['prototype', 'c'],
      ['tier', 'gold'],
    ],
    'every key read back',
  )
  for (const [key, value] of [
    ['__proto__', 'a'],
    ['constructor', 'b'],
    ['prototype', 'c'],
  ]) {
    t.equal(await ts.call('get_client_setting', { client_id: clientId, key }, org.key), value, `get_client_setting ${key}`)
  }
  const recorded = (await streamEvents(ts, `client-${clientId}`)).filter((e) => e.type === 'ClientSettingSet').map((e) => e.data.key)
  t.same(recorded.sort(), ['__proto__', 'constructor', 'prototype', 'tier'], 'one ClientSettingSet per key')
})

t.test('set_client_setting stores the same keys the same way, and add_client agrees with it', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const viaSet = await ts.call<number>('add_client', { client: { name: 'Set Co', website_url: 'https://set.example.com' } }, org.key)
  for (const key of RESERVED) {
    t.same(await ts.call('set_client_setting', { client_id: viaSet, key, value: `v-${key}` }, org.key), {
      client_id: viaSet,
      key,
      value: `v-${key}`,
    })
  }
  const viaAdd = await ts.call<number>(
    'add_client',
    {
      client: {
        name: 'Add Co',
        website_url: 'https://add.example.com',
        settings: Object.fromEntries(RESERVED.map((key) => [key, `v-${key}`])),
      },
    },
    org.key,
  )
  const a = await ts.call<Record<string, string>>('get_all_client_settings', { client_id: viaSet }, org.key)
  const b = await ts.call<Record<string, string>>('get_all_client_settings', { client_id: viaAdd }, org.key)
  t.same(
    keysOf(a),
    RESERVED.map((key) => [key, `v-${key}`]).sort(([x], [y]) => x!.localeCompare(y!)),
    'set_client_setting: every key',
  )
  t.same(keysOf(b), keysOf(a), 'add_client: the same settings as set_client_setting')

  // Setting it again to the same value changes nothing; another value replaces it.
  const before = (await streamEvents(ts, `client-${viaAdd}`)).length
  await ts.call('set_client_setting', { client_id: viaAdd, key: '__proto__', value: 'v-__proto__' }, org.key)
  t.equal((await streamEvents(ts, `client-${viaAdd}`)).length, before, 'same value: no event')
  await ts.call('set_client_setting', { client_id: viaAdd, key: '__proto__', value: 'changed' }, org.key)
  t.equal(await ts.call('get_client_setting', { client_id: viaAdd, key: '__proto__' }, org.key), 'changed')
})

t.test('settings keys are still validated on add_client, naming the key', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const response = await ts.rpc(
    'add_client',
    { client: { name: 'Bad Co', website_url: 'https://bad.example.com', settings: { 'has space': 'x' } } },
    org.key,
  )
  t.equal(response.statusCode, 400)
  t.equal(response.json().code, 'validation_failed')
  t.match(response.json().detail, /client\.settings\.has space/)
  const notText = await ts.rpc(
    'add_client',
    { client: { name: 'Bad Co', website_url: 'https://bad.example.com', settings: { tier: 5 } } },
    org.key,
  )
  t.equal(notText.statusCode, 400)
  t.match(notText.json().detail, /client\.settings\.tier/)
  const notObject = await ts.rpc(
    'add_client',
    { client: { name: 'Bad Co', website_url: 'https://bad.example.com', settings: ['tier'] } },
    org.key,
  )
  t.equal(notObject.statusCode, 400)
  t.match(notObject.json().detail, /client\.settings: expected an object/)
})
