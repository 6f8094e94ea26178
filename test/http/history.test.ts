/**
 * History read from the log: get_entity_history, get_client_change_history, get_org_activity, and
 * get_organization. Newest first, with the actor that made each change; secrets never shown.
 */
import t from 'tap'
import { createHash } from 'node:crypto'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'

interface Entry {
  event_id: string
  type: string
  revision: number
  occurred_at: string
  actor: { kind: string; id: string | number | null }
  data: Record<string, unknown>
  entity_type?: string
}

interface Activity {
  event_id: string
  type: string
  stream: string
  client_id: number | null
  actor: { kind: string; id: string | null }
  occurred_at: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const nonIncreasing = (times: string[]) => times.every((time, i) => i === 0 || Date.parse(times[i - 1]!) >= Date.parse(time))

t.test('get_entity_history: a client, newest first, with actors and limit', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const platformKeyId = (await ts.call<{ id: number }[]>('list_api_keys', {}))[0]!.id
  const id = await ts.call<number>('add_client', clientPayload('Hist', { services: ['SEO'], settings: { tier: 'gold' } }), org.key)
  await ts.call('update_client', { client_id: id, name: 'Hist Renamed' }, org.key)
  await ts.call('set_client_status', { client_id: id, status: 'paused' }, org.key)
  await ts.call('set_client_setting', { client_id: id, key: 'tier', value: 'silver' })

  const history = await ts.call<Entry[]>('get_entity_history', { entity_type: 'client', entity_id: id }, org.key)
  t.same(
    history.map((e) => [e.revision, e.type]),
    [
      [5, 'ClientSettingSet'],
      [4, 'ClientStatusChanged'],
      [3, 'ClientUpdated'],
      [2, 'ClientSettingSet'],
      [1, 'ClientServiceAdded'],
      [0, 'ClientAdded'],
    ],
    'every change, newest first',
  )
  t.same(history[0]!.actor, { kind: 'api_key', id: platformKeyId }, 'the platform key made the last change')
  for (const entry of history.slice(1)) t.same(entry.actor, { kind: 'api_key', id: org.keyId }, `${entry.type} by the org key`)
  t.ok(
    history.every((e) => UUID.test(e.event_id)),
    'event ids are uuids',
  )
  t.equal(new Set(history.map((e) => e.event_id)).size, history.length, 'distinct event ids')
  t.ok(
    history.every((e) => ISO.test(e.occurred_at)),
    'ISO times',
  )
  t.ok(nonIncreasing(history.map((e) => e.occurred_at)), 'times newest first')
  t.same(history[2]!.data, { client_id: id, name: 'Hist Renamed' }, 'an update carries only what changed')
  t.same(history[1]!.data, { client_id: id, from: 'active', to: 'paused' })
  t.same(history[0]!.data, { client_id: id, key: 'tier', value: 'silver' })
  t.match(history[5]!.data, { client_id: id, org_id: org.orgId, name: 'Hist', status: 'active' })

  const two = await ts.call<Entry[]>('get_entity_history', { entity_type: 'client', entity_id: id, limit: 2 }, org.key)
  t.same(two, history.slice(0, 2), 'limit keeps the newest')
  const one = await ts.call<Entry[]>('get_entity_history', { entity_type: 'client', entity_id: id, limit: 1 }, org.key)
  t.same(
    one.map((e) => e.revision),
    [5],
  )
  expectError(
    t,
    await ts.rpc('get_entity_history', { entity_type: 'client', entity_id: id, limit: 0 }, org.key),
    400,
    'validation_failed',
    'limit 0',
  )

  // The platform key sees the same history.
  t.same(await ts.call('get_entity_history', { entity_type: 'client', entity_id: id }), history)
})

t.test('get_entity_history: organizations and api keys, never with key_hash', async (t) => {
  const ts = await startTestSystem(t)
  const platformKeyId = (await ts.call<{ id: number }[]>('list_api_keys', {}))[0]!.id
  const org = await orgWithKey(ts, 'Acme')

  const orgHistory = await ts.call<Entry[]>('get_entity_history', { entity_type: 'organization', entity_id: org.orgId }, org.key)
  t.equal(orgHistory.length, 1)
  t.equal(orgHistory[0]!.type, 'OrganizationCreated')
  t.same(orgHistory[0]!.actor, { kind: 'api_key', id: platformKeyId }, 'created by the platform key')
  t.match(orgHistory[0]!.data, { org_id: org.orgId, name: 'Acme' })

  const second = await ts.call<{ id: number; key: string }>('create_api_key', { name: 'second', scopes: 'read' }, org.key)
  await ts.call('revoke_api_key', { key_id: second.id }, org.key)
  const response = await ts.rpc('get_entity_history', { entity_type: 'api_key', entity_id: second.id }, org.key)
  t.equal(response.statusCode, 200)
  const keyHistory = response.json().result as Entry[]
  t.same(
    keyHistory.map((e) => e.type),
    ['ApiKeyRevoked', 'ApiKeyCreated'],
    'newest first',
  )
  t.ok(
    keyHistory.every((e) => e.actor.kind === 'api_key' && e.actor.id === org.keyId),
    'both by the org key',
  )
  const created = keyHistory[1]!.data
  t.notOk('key_hash' in created, 'no key_hash in the data')
  t.notOk('key' in created, 'no plaintext key in the data')
  t.match(created, { key_id: second.id, org_id: org.orgId, name: 'second', scopes: ['read'], key_hint: second.key.slice(0, 10) })
  const hash = createHash('sha256').update(second.key).digest('hex')
  t.notOk(response.body.includes(hash), 'the hash appears nowhere in the response')
  t.notOk(response.body.includes(second.key), 'the key appears nowhere in the response')

  // The log does hold the hash (that is what authenticates); only the API hides it.
  const { rows } = await ts.database.pool.query<{ data: { key_hash?: string } }>(
    `select data from es_events where stream_name = $1 and type = 'ApiKeyCreated'`,
    [`api_key-${second.id}`],
  )
  t.equal(rows[0]?.data.key_hash, hash, 'the stored event carries the sha256')

  // The platform key's own history, read by the platform key: no hash either.
  const platformResponse = await ts.rpc('get_entity_history', { entity_type: 'api_key', entity_id: platformKeyId })
  t.equal(platformResponse.statusCode, 200)
  const platformHistory = platformResponse.json().result as Entry[]
  t.same(
    platformHistory.map((e) => e.type),
    ['ApiKeyCreated'],
  )
  t.same(platformHistory[0]!.actor, { kind: 'system', id: 'bootstrap' }, 'the bootstrap minted it')
  t.notOk('key_hash' in platformHistory[0]!.data)
  t.notOk(platformResponse.body.includes(createHash('sha256').update(ts.platformKey).digest('hex')))
})

t.test('get_client_change_history: parts of a client, filtered by entity_type, with limit', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const id = await ts.call<number>('add_client', clientPayload('Parts', { services: ['SEO'], locations: ['Austin, TX'] }), org.key)
  await ts.call('add_service', { service: { client_id: id, name: 'PPC' } }, org.key)
  await ts.call('set_client_setting', { client_id: id, key: 'tier', value: 'gold' }, org.key)
  await ts.call('delete_locations_for_client', { client_id: id }, org.key)
  await ts.call('update_client', { client_id: id, website_url: 'https://parts2.example.com' }, org.key)

  const all = await ts.call<Entry[]>('get_client_change_history', { client_id: id }, org.key)
  t.same(
    all.map((e) => [e.revision, e.type, e.entity_type]),
    [
      [6, 'ClientUpdated', 'client'],
      [5, 'ClientLocationsRemoved', 'location'],
      [4, 'ClientSettingSet', 'setting'],
      [3, 'ClientServiceAdded', 'service'],
      [2, 'ClientLocationAdded', 'location'],
      [1, 'ClientServiceAdded', 'service'],
      [0, 'ClientAdded', 'client'],
    ],
    'newest first, each tagged with the part it is about',
  )
  t.ok(all.every((e) => e.actor.kind === 'api_key' && e.actor.id === org.keyId))

  const only = async (entity_type: string, limit?: number) =>
    (await ts.call<Entry[]>('get_client_change_history', { client_id: id, entity_type, ...(limit ? { limit } : {}) }, org.key)).map((e) => [
      e.revision,
      e.entity_type,
    ])
  t.same(await only('service'), [
    [3, 'service'],
    [1, 'service'],
  ])
  t.same(await only('location'), [
    [5, 'location'],
    [2, 'location'],
  ])
  t.same(await only('setting'), [[4, 'setting']])
  t.same(await only('client'), [
    [6, 'client'],
    [0, 'client'],
  ])
  t.same(await only('service', 1), [[3, 'service']], 'the limit applies after the filter')
  t.same(
    (await ts.call<Entry[]>('get_client_change_history', { client_id: id, limit: 3 }, org.key)).map((e) => e.revision),
    [6, 5, 4],
  )
  expectError(t, await ts.rpc('get_client_change_history', { client_id: id, entity_type: 'keyword' }, org.key), 400, 'validation_failed')
})

t.test('get_org_activity: the organization feed, newest first, filtered by client_id, limit and days', async (t) => {
  let now = Date.parse('2032-05-01T12:00:00.000Z')
  const tick = () => {
    now += 1000
  }
  const ts = await startTestSystem(t, { clock: () => new Date(now) })
  // Each step one second apart, so that "newest first" has one answer across streams.
  const org = async (name: string) => {
    tick()
    const orgId = await ts.call<number>('create_organization', { name })
    tick()
    const created = await ts.call<{ id: number; key: string }>('create_api_key', { name: `${name} key`, org_id: orgId })
    return { orgId, key: created.key, keyId: created.id }
  }
  const a = await org('A')
  const b = await org('B')
  tick()
  // slug '': no slug reservation in the feed (add_client would derive one from the name).
  const first = await ts.call<number>('add_client', clientPayload('First', { slug: '' }), a.key)
  tick()
  const second = await ts.call<number>('add_client', clientPayload('Second', { services: ['SEO'], slug: '' }), a.key)
  tick()
  await ts.call('set_client_setting', { client_id: first, key: 'tier', value: 'gold' }, a.key)
  tick()
  await ts.call('update_client', { client_id: second, name: 'Second Renamed' }, a.key)
  tick()
  const foreign = await ts.call<number>('add_client', clientPayload('Foreign'), b.key)

  const all = await ts.call<Activity[]>('get_org_activity', {}, a.key)
  // add_client's get-or-create reservation (ClientIdentityClaimed on client_identity-<org>-<digest>) is an event
  // of the organization too, in the same second as the write it belongs to; update_client claims the renamed
  // client's new identity. Checked on their own, since the feed's order within one second is not the log's.
  const reservation = (e: Activity) => e.type === 'ClientIdentityClaimed'
  t.same(
    all.filter((e) => !reservation(e)).map((e) => [e.type, e.stream]),
    [
      ['ClientUpdated', `client-${second}`],
      ['ClientSettingSet', `client-${first}`],
      ['ClientServiceAdded', `client-${second}`],
      ['ClientAdded', `client-${second}`],
      ['ClientAdded', `client-${first}`],
      ['ApiKeyCreated', `api_key-${a.keyId}`],
      ['OrganizationCreated', `organization-${a.orgId}`],
    ],
    "A's events only, newest first",
  )
  t.same(
    all
      .filter(reservation)
      .map((e) => e.client_id)
      .sort(),
    [first, second, second].sort(),
    "add_client's reservations, and update_client's of the new name",
  )
  t.ok(all.filter(reservation).every((e) => e.stream.startsWith(`client_identity-${a.orgId}-`)))
  t.ok(nonIncreasing(all.map((e) => e.occurred_at)))
  t.ok(all.every((e) => UUID.test(e.event_id)))
  t.notOk(
    all.some((e) => e.client_id === foreign),
    "B's client is not in A's feed",
  )
  t.same(all[0]!.actor, { kind: 'api_key', id: String(a.keyId) }, 'the actor is the org key')
  t.equal(all[0]!.client_id, second)
  t.equal(all.find((e) => e.type === 'ApiKeyCreated')!.client_id, null, 'events not about a client have client_id null')

  const firstOnly = await ts.call<Activity[]>('get_org_activity', { client_id: first }, a.key)
  t.same(
    firstOnly.filter((e) => !reservation(e)).map((e) => [e.type, e.client_id]),
    [
      ['ClientSettingSet', first],
      ['ClientAdded', first],
    ],
    'filtered by client_id',
  )
  t.equal(firstOnly.filter(reservation).length, 1)
  const limited = await ts.call<Activity[]>('get_org_activity', { limit: 3 }, a.key)
  t.same(limited, all.slice(0, 3), 'limit keeps the newest')
  t.same((await ts.call<Activity[]>('get_org_activity', { client_id: second, limit: 2 }, a.key)).map((e) => e.type).sort(), [
    'ClientIdentityClaimed',
    'ClientUpdated',
  ])
  t.same(await ts.call('get_org_activity', { user_id: 1 }, a.key), [], 'no user acted in this organization')

  // Older than the window: 40 days later, the default 30-day window is empty; days widens it.
  now += 40 * 86_400_000
  t.same(await ts.call('get_org_activity', {}, a.key), [], 'default window is 30 days')
  t.equal((await ts.call<Activity[]>('get_org_activity', { days: 60 }, a.key)).length, all.length, 'days: 60 reaches back')
  await ts.call('set_client_setting', { client_id: first, key: 'tier', value: 'silver' }, a.key)
  t.same(
    (await ts.call<Activity[]>('get_org_activity', {}, a.key)).map((e) => e.type),
    ['ClientSettingSet'],
  )

  // The platform key reads any organization's feed, naming it.
  t.same(
    // (B's client got a slug derived from its name: a ClientSlugClaimed beside its identity's claim.)
    (await ts.call<Activity[]>('get_org_activity', { org_id: b.orgId, days: 60 }))
      .map((e) => e.type)
      .filter((type) => !['ClientIdentityClaimed', 'ClientSlugClaimed'].includes(type)),
    ['ClientAdded', 'ApiKeyCreated', 'OrganizationCreated'],
  )
})

t.test('get_organization', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const mine = await ts.call<{ id: number; name: string; created_at: string }>('get_organization', {}, org.key)
  t.same(Object.keys(mine).sort(), ['created_at', 'id', 'name'])
  t.equal(mine.id, org.orgId)
  t.equal(mine.name, 'Acme Agency')
  t.match(mine.created_at, ISO)
  t.same(await ts.call('get_organization', { org_id: org.orgId }, org.key), mine, 'its own org_id is fine')
  t.same(await ts.call('get_organization', { org_id: org.orgId }), mine, 'the platform key names it')
  const missing = expectError(t, await ts.rpc('get_organization', { org_id: org.orgId + 1000 }), 404, 'not_found')
  t.equal(missing.detail, `organization ${org.orgId + 1000} not found`)
  expectError(t, await ts.rpc('get_organization', {}), 400, 'org_id_required')
})

t.test('get_entity_history stays newest first past ten events', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const settings: Record<string, string> = {}
  for (let i = 0; i < 12; i++) settings[`k${i}`] = `v${i}`
  // One add_client appends 13 events at once (no read needed to write them).
  const id = await ts.call<number>('add_client', clientPayload('Many', { settings }), org.key)
  const history = await ts.call<Entry[]>('get_entity_history', { entity_type: 'client', entity_id: id }, org.key)
  t.same(
    history.map((e) => e.revision),
    Array.from({ length: 13 }, (_, i) => 12 - i),
  )
})
