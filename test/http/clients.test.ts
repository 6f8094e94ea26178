/**
 * Client behaviour through the RPCs: creation with services, locations, settings and slug; list filters;
 * status changes and restore; slugs; get-or-create services and locations; attention flags; as_of reads.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, withoutIds } from './helpers.js'

interface ClientView {
  id: number
  org_id: number
  name: string
  website_url: string
  slug: string
  status: string
  services: string[]
  locations: string[]
  created_at: string
  updated_at: string
  deactivated_at: string | null
  deleted_at: string | null
  as_of?: string
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

async function setup(t: Parameters<typeof startTestSystem>[0], options: Parameters<typeof startTestSystem>[1] = {}) {
  const ts = await startTestSystem(t, options)
  const org = await orgWithKey(ts, 'Acme')
  return { ts, org }
}

t.test('add_client with services, locations, settings and slug reads back everywhere', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>(
    'add_client',
    {
      client: {
        name: '  Acme Plumbing  ',
        website_url: 'https://acme-plumbing.example.com',
        slug: 'acme-plumbing',
        services: ['Drain Cleaning', { name: 'Water Heaters', description: 'Install and repair' }, 'drain cleaning'],
        locations: [
          'Austin, TX',
          { city: 'Dallas', state: 'TX' },
          { name: 'Greater Houston', city: 'Houston', state: 'TX', country: 'US' },
          'Waco',
        ],
        settings: { tier: 'gold', attention_flag: '' },
      },
    },
    org.key,
  )
  t.equal(typeof id, 'number')
  t.ok(Number.isInteger(id) && id > 0, 'a positive integer id')

  const client = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
  t.same(
    { ...client, created_at: '', updated_at: '' },
    {
      id,
      org_id: org.orgId,
      name: 'Acme Plumbing',
      website_url: 'https://acme-plumbing.example.com',
      slug: 'acme-plumbing',
      status: 'active',
      services: ['Drain Cleaning', 'Water Heaters'],
      locations: ['Austin, TX', 'Dallas, TX', 'Greater Houston', 'Waco'],
      created_at: '',
      updated_at: '',
      deactivated_at: null,
      deleted_at: null,
    },
    'the client view (name trimmed, duplicate service dropped)',
  )
  t.match(client.created_at, ISO)
  t.match(client.updated_at, ISO)
  t.notOk('as_of' in client, 'no as_of on a live read')

  const services = await ts.call<{ id: number; client_id: number; name: string; description: string; created_at: string }[]>(
    'get_services_for_client',
    { client_id: id },
    org.key,
  )
  t.same(
    services.map((s) => [s.client_id, s.name, s.description]),
    [
      [id, 'Drain Cleaning', ''],
      [id, 'Water Heaters', 'Install and repair'],
    ],
  )
  t.ok(services[0]!.id < services[1]!.id, 'service ids in order')

  const locations = await ts.call<{ name: string; city: string; state: string; country: string; client_id: number }[]>(
    'get_locations_for_client',
    { client_id: id },
    org.key,
  )
  t.same(
    locations.map((l) => ({ name: l.name, city: l.city, state: l.state, country: l.country })),
    [
      { name: 'Austin, TX', city: 'Austin', state: 'TX', country: '' },
      { name: 'Dallas, TX', city: 'Dallas', state: 'TX', country: '' },
      { name: 'Greater Houston', city: 'Houston', state: 'TX', country: 'US' },
      { name: 'Waco', city: 'Waco', state: '', country: '' },
    ],
    '"Austin, TX" parses to city Austin, state TX; parts make the name',
  )

  t.same(await ts.call('get_all_client_settings', { client_id: id }, org.key), { attention_flag: '', tier: 'gold' })
  t.equal(await ts.call('get_client_setting', { client_id: id, key: 'tier' }, org.key), 'gold')
  t.equal(await ts.call('get_client_setting', { client_id: id, key: 'never_set' }, org.key), null, 'an unset setting is null')
  t.equal(await ts.call('get_client_slug', { client_id: id }, org.key), 'acme-plumbing')
  t.equal(await ts.call('get_client_org_id', { client_id: id }, org.key), org.orgId)
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'acme-plumbing' }, org.key), id)
})

t.test('a client with no slug (slug ""), services or locations has empty ones', async (t) => {
  const { ts, org } = await setup(t)
  // Without slug, add_client derives one from the name (clients-get-or-create.test.ts); "" asks for none.
  const id = await ts.call<number>('add_client', clientPayload('Bare', { slug: '' }), org.key)
  const client = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
  t.equal(client.slug, '')
  t.same(client.services, [])
  t.same(client.locations, [])
  t.equal(await ts.call('get_client_slug', { client_id: id }, org.key), '')
  t.same(await ts.call('get_all_client_settings', { client_id: id }, org.key), {})
  t.same(await ts.call('get_all_client_slugs', {}, org.key), [], 'a client without a slug is not listed')
})

t.test('get_all_clients filters, get_deleted_clients and count_active_clients', async (t) => {
  const { ts, org } = await setup(t)
  const add = (name: string, status: string) => ts.call<number>('add_client', clientPayload(name, { status }), org.key)
  const active1 = await add('Active One', 'active')
  const paused = await add('Paused', 'paused')
  const staging = await add('Staging', 'staging')
  const deleted = await add('Deleted', 'deleted')
  const active2 = await add('Active Two', 'active')
  const ids = (list: ClientView[]) => list.map((c) => c.id)
  const list = async (flags: Record<string, boolean>) => ids(await ts.call<ClientView[]>('get_all_clients', flags, org.key))

  t.same(await list({}), [active1, paused, staging, active2], 'default: everything but deleted')
  t.same(await list({ active_only: true }), [active1, active2], 'active_only')
  t.same(await list({ include_deleted: true }), [active1, paused, staging, deleted, active2], 'include_deleted')
  t.same(await list({ include_paused: false }), [active1, staging, active2], 'include_paused false')
  t.same(await list({ include_staging: false }), [active1, paused, active2], 'include_staging false')
  t.same(await list({ include_paused: false, include_staging: false }), [active1, active2], 'neither paused nor staging')
  t.same(await list({ include_paused: false, include_staging: false, include_deleted: true }), [active1, deleted, active2])
  t.same(
    await list({ active_only: true, include_deleted: true, include_paused: true }),
    [active1, active2],
    'active_only narrows whatever else',
  )

  const deletedList = await ts.call<ClientView[]>('get_deleted_clients', {}, org.key)
  t.same(ids(deletedList), [deleted])
  t.equal(deletedList[0]!.status, 'deleted')
  t.match(deletedList[0]!.deleted_at, ISO, 'deleted_at set')

  t.equal(await ts.call('count_active_clients', {}, org.key), 2, 'active only: paused, staging and deleted not counted')
  await ts.call('set_client_status', { client_id: paused, status: 'active' }, org.key)
  t.equal(await ts.call('count_active_clients', {}, org.key), 3, 'a resumed client counts')
  await ts.call('set_client_status', { client_id: active1, status: 'paused' }, org.key)
  t.equal(await ts.call('count_active_clients', {}, org.key), 2, 'a paused client does not')
})

t.test('set_client_status: pause, delete and restore', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Cycle', { slug: 'cycle' }), org.key)
  const get = () => ts.call<ClientView>('get_client', { client_id: id }, org.key)

  await ts.call('set_client_status', { client_id: id, status: 'paused' }, org.key)
  let client = await get()
  t.equal(client.status, 'paused')
  t.match(client.deactivated_at, ISO, 'deactivated_at set on pause')
  t.equal(client.deleted_at, null)

  await ts.call('set_client_status', { client_id: id, status: 'deleted' }, org.key)
  client = await get()
  t.equal(client.status, 'deleted', 'a deleted client still reads by id')
  t.match(client.deleted_at, ISO)
  t.notOk(
    (await ts.call<ClientView[]>('get_all_clients', {}, org.key)).some((c) => c.id === id),
    'not listed by default',
  )
  t.same(
    (await ts.call<ClientView[]>('get_deleted_clients', {}, org.key)).map((c) => c.id),
    [id],
  )
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'cycle' }, org.key), null, "a deleted client's slug does not resolve")
  t.same(await ts.call('get_all_client_slugs', {}, org.key), [])

  // Restore from deleted.
  await ts.call('set_client_status', { client_id: id, status: 'active' }, org.key)
  client = await get()
  t.equal(client.status, 'active', 'restored')
  t.equal(client.deleted_at, null, 'deleted_at cleared')
  t.equal(client.deactivated_at, null, 'deactivated_at cleared')
  t.same(
    (await ts.call<ClientView[]>('get_all_clients', {}, org.key)).map((c) => c.id),
    [id],
    'listed again',
  )
  t.same(await ts.call('get_deleted_clients', {}, org.key), [])
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'cycle' }, org.key), id)

  // Setting the same status again is harmless and appends nothing.
  const before = await eventCount(ts)
  await ts.call('set_client_status', { client_id: id, status: 'active' }, org.key)
  t.equal(await eventCount(ts), before, 'no-op status change appends nothing')
})

t.test('set_client_status and update_client answer with the client as it is after the change', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Fresh'), org.key)
  // Four rounds: eight events on one stream, below the ten-event ordering bug tested further down.
  for (let i = 0; i < 4; i++) {
    const updated = await ts.call<ClientView>('update_client', { client_id: id, name: `Fresh ${i}` }, org.key)
    t.equal(updated.name, `Fresh ${i}`, `update_client ${i} answers the new name`)
    const status = i % 2 === 0 ? 'paused' : 'active'
    const changed = await ts.call<ClientView>('set_client_status', { client_id: id, status }, org.key)
    t.equal(changed.status, status, `set_client_status ${i} answers the new status`)
  }
})

t.test('a deleted client refuses changes with 409 client_deleted until restored', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Gone', { locations: ['Austin, TX'] }), org.key)
  await ts.call('set_client_status', { client_id: id, status: 'deleted' }, org.key)
  const before = await eventCount(ts)
  const refused: [string, Record<string, unknown>][] = [
    ['update_client', { client_id: id, name: 'Zombie' }],
    ['update_client', { client_id: id, slug: 'zombie' }],
    ['set_client_setting', { client_id: id, key: 'tier', value: 'gold' }],
    ['add_service', { service: { client_id: id, name: 'Haunting' } }],
    ['add_location', { location: { client_id: id, name: 'Salem, MA' } }],
    ['delete_locations_for_client', { client_id: id }],
  ]
  for (const [method, body] of refused) {
    const envelope = expectError(t, await ts.rpc(method, body, org.key), 409, 'client_deleted', method)
    t.equal(envelope.error, 'The client is deleted')
    t.match(envelope.detail ?? '', new RegExp(`client ${id}`), `${method}: detail names the client`)
    t.match(envelope.hint ?? '', /set_client_status/, `${method}: hint says how to restore`)
  }
  t.equal(await eventCount(ts), before, 'nothing appended')

  await ts.call('set_client_status', { client_id: id, status: 'active' }, org.key)
  await ts.call('update_client', { client_id: id, name: 'Back' }, org.key)
  t.equal((await ts.call<ClientView>('get_client', { client_id: id }, org.key)).name, 'Back', 'restored clients accept changes')
})

t.test('update_client changes only the fields given', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Orig', { slug: 'orig' }), org.key)
  const created = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
  await ts.call('update_client', { client_id: id, website_url: 'https://new.example.com' }, org.key)
  let client = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
  t.equal(client.website_url, 'https://new.example.com')
  t.equal(client.name, 'Orig')
  t.equal(client.slug, 'orig')
  t.equal(client.created_at, created.created_at, 'created_at unchanged')
  t.ok(client.updated_at >= created.updated_at, 'updated_at moves forward')

  await ts.call('update_client', { client_id: id, slug: '' }, org.key)
  client = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
  t.equal(client.slug, '', 'an empty slug clears it')
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'orig' }, org.key), null)

  const before = await eventCount(ts)
  await ts.call('update_client', { client_id: id, name: 'Orig' }, org.key)
  await ts.call('update_client', { client_id: id }, org.key)
  t.equal(await eventCount(ts), before, 'an update that changes nothing appends nothing')
})

t.test('slugs are unique among non-deleted clients of one organization', async (t) => {
  const { ts, org } = await setup(t)
  const other = await orgWithKey(ts, 'Other')
  const first = await ts.call<number>('add_client', clientPayload('First', { slug: 'shared' }), org.key)
  const second = await ts.call<number>('add_client', clientPayload('Second', { slug: 'second' }), org.key)
  const before = await eventCount(ts)

  const taken = expectError(
    t,
    await ts.rpc('add_client', clientPayload('Dup', { slug: 'shared' }), org.key),
    409,
    'slug_taken',
    'add_client',
  )
  t.match(taken.detail ?? '', /shared/)
  t.ok(taken.hint)
  expectError(t, await ts.rpc('add_client', clientPayload('Dup', { slug: '  shared ' }), org.key), 409, 'slug_taken', 'trimmed slug')
  expectError(t, await ts.rpc('update_client', { client_id: second, slug: 'shared' }, org.key), 409, 'slug_taken', 'update_client')
  t.equal(await eventCount(ts), before, 'nothing appended')

  // Its own slug is not a conflict; another organization may use the same slug; empty slugs never clash.
  await ts.call('update_client', { client_id: first, slug: 'shared', name: 'First renamed' }, org.key)
  const elsewhere = await ts.call<number>('add_client', clientPayload('Elsewhere', { slug: 'shared' }), other.key)
  await ts.call('add_client', clientPayload('No slug 1', { slug: '' }), org.key)
  await ts.call('add_client', clientPayload('No slug 2', { slug: '' }), org.key)

  t.equal(await ts.call('get_client_id_by_slug', { slug: 'shared' }, org.key), first)
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'shared' }, other.key), elsewhere)
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'unknown' }, org.key), null)
  t.same(await ts.call('get_all_client_slugs', {}, org.key), [
    { client_id: first, slug: 'shared' },
    { client_id: second, slug: 'second' },
  ])

  // A deleted client's slug is free again.
  await ts.call('set_client_status', { client_id: second, status: 'deleted' }, org.key)
  const reuse = await ts.call<number>('add_client', clientPayload('Reuse', { slug: 'second' }), org.key)
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'second' }, org.key), reuse)
  t.same(await ts.call('get_all_client_slugs', {}, org.key), [
    { client_id: first, slug: 'shared' },
    { client_id: reuse, slug: 'second' },
  ])
})

t.test('restoring a deleted client whose slug was reused meanwhile is refused with 409 slug_taken', async (t) => {
  const { ts, org } = await setup(t)
  const old = await ts.call<number>('add_client', clientPayload('Old', { slug: 'brand' }), org.key)
  await ts.call('set_client_status', { client_id: old, status: 'deleted' }, org.key)
  await ts.call<number>('add_client', clientPayload('New', { slug: 'brand' }), org.key)
  expectError(t, await ts.rpc('set_client_status', { client_id: old, status: 'active' }, org.key), 409, 'slug_taken')
  const slugs = await ts.call<{ slug: string }[]>('get_all_client_slugs', {}, org.key)
  t.equal(slugs.filter((s) => s.slug === 'brand').length, 1, 'one live client per slug')
})

t.test('concurrent add_client calls with one slug: exactly one wins', async (t) => {
  const { ts, org } = await setup(t)
  const responses = await Promise.all(
    Array.from({ length: 5 }, (_, i) => ts.rpc('add_client', clientPayload(`Racer ${i}`, { slug: 'race' }), org.key)),
  )
  t.same(responses.map((r) => r.statusCode).sort(), [200, 409, 409, 409, 409], 'one created, the rest slug_taken')
  const slugs = await ts.call<{ slug: string }[]>('get_all_client_slugs', {}, org.key)
  t.equal(slugs.filter((s) => s.slug === 'race').length, 1)
})

t.test('services are get-or-create by name, case- and space-insensitive', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Svc', { services: ['Drain Cleaning'] }), org.key)
  const existing = (await ts.call<{ id: number }[]>('get_services_for_client', { client_id: id }, org.key))[0]!.id

  const before = await eventCount(ts)
  t.equal(await ts.call('add_service', { service: { client_id: id, name: 'drain cleaning' } }, org.key), existing, 'lower case: same id')
  t.equal(await ts.call('add_service', { service: { client_id: id, name: '  DRAIN   Cleaning ' } }, org.key), existing, 'spacing: same id')
  t.equal(await eventCount(ts), before, 'asking again appends nothing')

  const roofing = await ts.call<number>('add_service', { service: { client_id: id, name: 'Roofing', description: 'Roofs' } }, org.key)
  t.not(roofing, existing, 'a new service gets a new id')
  t.equal(await ts.call('add_service', { service: { client_id: id, name: 'ROOFING' } }, org.key), roofing, 'repeat: same id')
  const services = await ts.call<{ id: number; name: string; description: string }[]>('get_services_for_client', { client_id: id }, org.key)
  t.same(
    services.map((s) => [s.id, s.name, s.description]),
    [
      [existing, 'Drain Cleaning', ''],
      [roofing, 'Roofing', 'Roofs'],
    ],
    'one row per service, the first spelling kept',
  )
  t.same((await ts.call<ClientView>('get_client', { client_id: id }, org.key)).services, ['Drain Cleaning', 'Roofing'])

  // Services are per client: the same name on another client is another service.
  const other = await ts.call<number>('add_client', clientPayload('Other'), org.key)
  t.not(await ts.call('add_service', { service: { client_id: other, name: 'Roofing' } }, org.key), roofing)
})

t.test('locations are get-or-create by display name; delete_locations_for_client removes them all', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Loc', { locations: ['Austin, TX'] }), org.key)
  const austin = (await ts.call<{ id: number }[]>('get_locations_for_client', { client_id: id }, org.key))[0]!.id

  const before = await eventCount(ts)
  t.equal(await ts.call('add_location', { location: { client_id: id, name: 'austin, tx' } }, org.key), austin, 'case-insensitive')
  t.equal(
    await ts.call('add_location', { location: { client_id: id, city: 'Austin', state: 'TX' } }, org.key),
    austin,
    'the same place by parts',
  )
  t.equal(await ts.call('add_location', { location: { client_id: id, name: ' AUSTIN,  TX ' } }, org.key), austin, 'spacing')
  t.equal(await eventCount(ts), before, 'asking again appends nothing')

  const dallas = await ts.call<number>('add_location', { location: { client_id: id, city: 'Dallas', state: 'TX', country: 'US' } }, org.key)
  t.not(dallas, austin)
  t.equal(await ts.call('add_location', { location: { client_id: id, name: 'Dallas, TX, US' } }, org.key), dallas, 'by name: same id')

  let locations = await ts.call<{ id: number; name: string; city: string; state: string; country: string }[]>(
    'get_locations_for_client',
    { client_id: id },
    org.key,
  )
  t.same(
    locations.map((l) => [l.id, l.name, l.city, l.state, l.country]),
    [
      [austin, 'Austin, TX', 'Austin', 'TX', ''],
      [dallas, 'Dallas, TX, US', 'Dallas', 'TX', 'US'],
    ],
  )

  t.same(await ts.call('delete_locations_for_client', { client_id: id }, org.key), { deleted: 2 })
  t.same(await ts.call('get_locations_for_client', { client_id: id }, org.key), [])
  t.same((await ts.call<ClientView>('get_client', { client_id: id }, org.key)).locations, [])
  const afterDelete = await eventCount(ts)
  t.same(await ts.call('delete_locations_for_client', { client_id: id }, org.key), { deleted: 0 }, 'nothing left to delete')
  t.equal(await eventCount(ts), afterDelete, 'deleting nothing appends nothing')

  // A removed location can be added again, as a new location.
  const again = await ts.call<number>('add_location', { location: { client_id: id, name: 'Austin, TX' } }, org.key)
  t.not(again, austin, 'a new id')
  locations = await ts.call('get_locations_for_client', { client_id: id }, org.key)
  t.same(
    locations.map((l) => l.id),
    [again],
  )
})

t.test('add_location parses a display name like "Houston, TX" into city and state', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Parse'), org.key)
  await ts.call('add_location', { location: { client_id: id, name: 'Houston, TX' } }, org.key)
  const [location] = await ts.call<{ name: string; city: string; state: string }[]>('get_locations_for_client', { client_id: id }, org.key)
  t.same({ name: location?.name, city: location?.city, state: location?.state }, { name: 'Houston, TX', city: 'Houston', state: 'TX' })
})

t.test('attention flags list clients whose attention_flag is set', async (t) => {
  const { ts, org } = await setup(t)
  const flagged = await ts.call<number>('add_client', clientPayload('Flagged', { settings: { attention_flag: 'Call the owner' } }), org.key)
  const quiet = await ts.call<number>('add_client', clientPayload('Quiet'), org.key)
  const later = await ts.call<number>('add_client', clientPayload('Later'), org.key)
  const flags = () =>
    ts.call<{ client_id: number; client_name: string; attention_flag: string; updated_at: string }[]>(
      'get_attention_flags_for_org',
      {},
      org.key,
    )

  let list = await flags()
  t.same(
    list.map((f) => [f.client_id, f.client_name, f.attention_flag]),
    [[flagged, 'Flagged', 'Call the owner']],
  )
  t.match(list[0]!.updated_at, ISO)

  const set = await ts.call('set_client_setting', { client_id: later, key: 'attention_flag', value: 'Site is down' }, org.key)
  t.same(set, { client_id: later, key: 'attention_flag', value: 'Site is down' }, 'set_client_setting answers what it set')
  await ts.call('set_client_setting', { client_id: quiet, key: 'other', value: 'not a flag' }, org.key)
  list = await flags()
  t.same(
    list.map((f) => [f.client_id, f.attention_flag]),
    [
      [flagged, 'Call the owner'],
      [later, 'Site is down'],
    ],
  )
  t.equal(await ts.call('get_client_setting', { client_id: later, key: 'attention_flag' }, org.key), 'Site is down')

  // Clearing the flag (empty text) removes it; a deleted client's flag is not shown.
  await ts.call('set_client_setting', { client_id: flagged, key: 'attention_flag', value: '' }, org.key)
  t.same(
    (await flags()).map((f) => f.client_id),
    [later],
  )
  t.equal(await ts.call('get_client_setting', { client_id: flagged, key: 'attention_flag' }, org.key), '', 'cleared, not unset')
  await ts.call('set_client_status', { client_id: later, status: 'deleted' }, org.key)
  t.same(await flags(), [], "a deleted client's flag is hidden")
})

t.test('get_client as_of folds the client as it was at that time', async (t) => {
  let now = Date.parse('2031-03-01T10:00:00.000Z')
  const clock = () => new Date(now)
  const { ts, org } = await setup(t, { clock })
  const at = (iso: string) => {
    now = Date.parse(iso)
  }

  at('2031-03-02T09:00:00.000Z')
  const id = await ts.call<number>(
    'add_client',
    clientPayload('Before', { slug: 'before', services: ['SEO'], locations: ['Austin, TX'] }),
    org.key,
  )
  at('2031-03-03T09:00:00.000Z')
  await ts.call('update_client', { client_id: id, name: 'After', slug: 'after' }, org.key)
  at('2031-03-04T09:00:00.000Z')
  await ts.call('add_service', { service: { client_id: id, name: 'PPC' } }, org.key)
  await ts.call('set_client_status', { client_id: id, status: 'paused' }, org.key)

  const asOf = (when: string) => ts.rpc('get_client', { client_id: id, as_of: when }, org.key)

  const between = await asOf('2031-03-02T12:00:00.000Z')
  t.equal(between.statusCode, 200)
  const old = between.json().result as ClientView
  t.equal(old.name, 'Before', 'the name before the update')
  t.equal(old.slug, 'before')
  t.equal(old.status, 'active')
  t.same(old.services, ['SEO'])
  t.same(old.locations, ['Austin, TX'])
  t.equal(old.as_of, '2031-03-02T12:00:00.000Z')
  t.equal(old.created_at, '2031-03-02T09:00:00.000Z')
  t.equal(old.updated_at, '2031-03-02T09:00:00.000Z')
  t.equal(old.id, id)
  t.equal(old.org_id, org.orgId)

  const exactlyAtCreation = (await asOf('2031-03-02T09:00:00.000Z')).json().result as ClientView
  t.equal(exactlyAtCreation.name, 'Before', 'an event at exactly as_of is included')

  const afterUpdate = (await asOf('2031-03-03T09:00:00.000+00:00')).json().result as ClientView
  t.equal(afterUpdate.name, 'After', 'the update at that very time is included; offsets accepted')
  t.equal(afterUpdate.slug, 'after')
  t.same(afterUpdate.services, ['SEO'])
  t.equal(afterUpdate.updated_at, '2031-03-03T09:00:00.000Z')

  const withOffset = (await asOf('2031-03-03T05:00:00-05:00')).json().result as ClientView
  t.equal(withOffset.name, 'After', 'a time with an offset is the same instant')
  t.equal(withOffset.as_of, '2031-03-03T10:00:00.000Z', 'as_of is echoed in UTC')

  const latest = (await asOf('2031-03-05T00:00:00.000Z')).json().result as ClientView
  t.same(latest.services, ['SEO', 'PPC'])
  t.equal(latest.status, 'paused')

  // The live view is unchanged by as_of reads.
  const live = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
  t.equal(live.name, 'After')

  // Before creation: 404, like a client that does not exist.
  const before = expectError(t, await asOf('2031-03-02T08:59:59.999Z'), 404, 'not_found', 'before creation')
  const missing = expectError(
    t,
    await ts.rpc('get_client', { client_id: id + 1000, as_of: '2031-03-05T00:00:00.000Z' }, org.key),
    404,
    'not_found',
  )
  t.same(withoutIds(before, [id]), withoutIds(missing, [id + 1000]), 'the same body, ids and request ids aside')
})

t.test('get_client as_of now matches the live view, status times included', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Status times', { services: ['SEO'], locations: ['Austin, TX'] }), org.key)
  const compare = async (what: string) => {
    const live = await ts.call<ClientView>('get_client', { client_id: id }, org.key)
    const when = new Date(Date.now() + 1000).toISOString()
    const folded = await ts.call<ClientView>('get_client', { client_id: id, as_of: when }, org.key)
    t.same(folded, { ...live, as_of: when }, what)
  }
  await compare('active')
  await ts.call('set_client_status', { client_id: id, status: 'paused' }, org.key)
  await compare('paused')
  await ts.call('set_client_status', { client_id: id, status: 'deleted' }, org.key)
  await compare('deleted from paused')
  await ts.call('set_client_status', { client_id: id, status: 'active' }, org.key)
  await compare('restored')
})

t.test('a client keeps accepting writes after more than ten events', async (t) => {
  const { ts, org } = await setup(t)
  const id = await ts.call<number>('add_client', clientPayload('Busy'), org.key)
  for (let i = 0; i < 14; i++) {
    const response = await ts.rpc('set_client_setting', { client_id: id, key: `k${i}`, value: `v${i}` }, org.key)
    t.equal(response.statusCode, 200, `write ${i + 2} of the stream answers 200`)
  }
  const settings = await ts.call<Record<string, string>>('get_all_client_settings', { client_id: id }, org.key)
  t.equal(Object.keys(settings).length, 14, 'every setting stored')
  await ts.call('update_client', { client_id: id, name: 'Still busy' }, org.key)
  t.equal((await ts.call<ClientView>('get_client', { client_id: id }, org.key)).name, 'Still busy')
})

t.test(
  'concurrent get_client reads (gathered into one statement per organization) each answer their own client, and another organization’s as missing',
  async (t) => {
    const { ts, org } = await setup(t)
    const other = await orgWithKey(ts, 'Other')
    const ours = await Promise.all(
      [1, 2, 3].map((i) => ts.call<number>('add_client', clientPayload(`Ours ${i}`, { services: [`Service ${i}`] }), org.key)),
    )
    const theirs = await ts.call<number>('add_client', clientPayload('Theirs'), other.key)
    const asked = [...ours, theirs, ours[0]!, ours[2]!, theirs, ours[1]!]
    const responses = await Promise.all([
      ...asked.map((id) => ts.rpc('get_client', { client_id: id }, org.key)),
      ts.rpc('get_client', { client_id: theirs }, other.key),
      ts.rpc('get_client', { client_id: ours[0] }, other.key),
    ])
    asked.forEach((id, i) => {
      if (id === theirs) {
        expectError(t, responses[i]!, 404, 'not_found', `read ${i + 1}: another organization's client`)
      } else {
        t.equal(responses[i]!.statusCode, 200, `read ${i + 1}`)
        const view = (responses[i]!.json() as { result: ClientView }).result
        t.equal(view.id, id, `read ${i + 1} answers client ${id}`)
        t.same(view.services, [`Service ${ours.indexOf(id) + 1}`], `read ${i + 1} carries its own services`)
      }
    })
    t.equal((responses[asked.length]!.json() as { result: ClientView }).result.id, theirs, 'the other organization reads its own')
    expectError(t, responses[asked.length + 1]!, 404, 'not_found', 'and not ours')
  },
)

t.test('get_all_clients pages with limit and offset, in id order', async (t) => {
  const { ts, org } = await setup(t)
  const ids: number[] = []
  for (const name of ['Page One', 'Page Two', 'Page Three', 'Page Four'])
    ids.push(await ts.call<number>('add_client', clientPayload(name), org.key))
  const page = async (params: Record<string, unknown>) => (await ts.call<ClientView[]>('get_all_clients', params, org.key)).map((c) => c.id)
  t.same(await page({}), ids, 'no limit: every client')
  t.same(await page({ limit: 2 }), ids.slice(0, 2), 'limit 2')
  t.same(await page({ limit: 2, offset: 2 }), ids.slice(2, 4), 'the next page')
  t.same(await page({ limit: 2, offset: 4 }), [], 'past the end')
  t.same(await page({ limit: 1, offset: 1, active_only: true }), [ids[1]], 'filters and pages together')
  expectError(t, await ts.rpc('get_all_clients', { limit: 0 }, org.key), 400, 'validation_failed', 'limit 0')
  expectError(t, await ts.rpc('get_all_clients', { limit: 1001 }, org.key), 400, 'validation_failed', 'over the maximum')
})
