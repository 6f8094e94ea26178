/**
 * add_client for a first-time user: asked twice for the same client (name, case- and
 * space-insensitive, and website_url) it answers the existing id instead of making a second client, even
 * when the calls race; and a client created without a slug gets one derived from its name, unique in the
 * organization (-2, -3 …).
 */
import t from 'tap'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { expectError, orgWithKey, type OrgWithKey } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  return { ts, org }
}

const add = (ts: TestSystem, org: OrgWithKey, client: Record<string, unknown>) => ts.call<number>('add_client', { client }, org.key)

async function clientAddedCount(ts: TestSystem): Promise<number> {
  const { rows } = await ts.database.pool.query<{ n: number }>(`select count(*)::int as n from es_events where type = 'ClientAdded'`)
  return rows[0]!.n
}

t.test('add_client twice with the same name and website answers the existing id and changes nothing', async (t) => {
  const { ts, org } = await setup(t)
  const first = await add(ts, org, { name: 'Austin Plumbing', website_url: 'https://austinplumbing.example', services: ['Drains'] })
  const again = await add(ts, org, { name: 'Austin Plumbing', website_url: 'https://austinplumbing.example', services: ['Drains'] })
  t.equal(again, first, 'the same id')
  t.equal(
    await add(ts, org, { name: '  austin   PLUMBING ', website_url: 'https://austinplumbing.example/' }),
    first,
    'name case and spacing, trailing slash: the same client',
  )
  t.equal(await clientAddedCount(ts), 1, 'one ClientAdded')
  t.equal((await ts.call<unknown[]>('get_all_clients', {}, org.key)).length, 1, 'one client listed')

  const otherSite = await add(ts, org, { name: 'Austin Plumbing', website_url: 'https://austin-plumbing.example' })
  t.not(otherSite, first, 'another website: another client')
  const otherName = await add(ts, org, { name: 'Austin Plumbing & Heating', website_url: 'https://austinplumbing.example' })
  t.not(otherName, first, 'another name: another client')
  const elsewhere = await orgWithKey(ts, 'Other Agency')
  const theirs = await add(ts, elsewhere, { name: 'Austin Plumbing', website_url: 'https://austinplumbing.example' })
  t.not(theirs, first, 'another organization has its own clients')
  t.equal(await clientAddedCount(ts), 4)
})

t.test('concurrent add_client calls for one client make one client, and every call answers its id', async (t) => {
  const { ts, org } = await setup(t)
  // Each caller reads the client right after its own answer: an answer naming the existing client waits, like
  // read-your-writes, until the read models show it (a concurrent call may have written it a moment ago).
  const answers = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const id = await add(ts, org, { name: 'Race Roofing', website_url: 'https://race.example.com' })
      return { id, read: (await ts.rpc('get_client', { client_id: id }, org.key)).statusCode }
    }),
  )
  const ids = answers.map((a) => a.id)
  t.equal(new Set(ids).size, 1, `one id (${[...new Set(ids)].join(', ')})`)
  t.equal(await clientAddedCount(ts), 1, 'one ClientAdded')
  t.same(
    answers.map((a) => a.read),
    answers.map(() => 200),
    'each caller reads the client at once',
  )
})

t.test('a client renamed, moved or deleted no longer answers for its old name and website', async (t) => {
  const { ts, org } = await setup(t)
  const renamed = await add(ts, org, { name: 'Old Name', website_url: 'https://renamed.example.com' })
  await ts.call('update_client', { client_id: renamed, name: 'New Name' }, org.key)
  const fresh = await add(ts, org, { name: 'Old Name', website_url: 'https://renamed.example.com' })
  t.not(fresh, renamed, 'the old name and website make a new client')
  t.equal(await add(ts, org, { name: 'Old Name', website_url: 'https://renamed.example.com' }), fresh, 'which then answers')

  const deleted = await add(ts, org, { name: 'Gone Co', website_url: 'https://gone.example.com' })
  await ts.call('set_client_status', { client_id: deleted, status: 'deleted' }, org.key)
  t.not(await add(ts, org, { name: 'Gone Co', website_url: 'https://gone.example.com' }), deleted, 'a deleted client does not answer')

  const paused = await add(ts, org, { name: 'Paused Co', website_url: 'https://paused.example.com' })
  await ts.call('set_client_status', { client_id: paused, status: 'paused' }, org.key)
  t.equal(await add(ts, org, { name: 'Paused Co', website_url: 'https://paused.example.com' }), paused, 'a paused client does')
})

t.test('a refused add_client does not reserve the client: the corrected call creates it at once', async (t) => {
  const { ts, org } = await setup(t)
  await add(ts, org, { name: 'Holder', website_url: 'https://holder.example.com', slug: 'taken' })
  expectError(
    t,
    await ts.rpc('add_client', { client: { name: 'Blocked', website_url: 'https://blocked.example.com', slug: 'taken' } }, org.key),
    409,
    'slug_taken',
  )
  const started = Date.now()
  const created = await add(ts, org, { name: 'Blocked', website_url: 'https://blocked.example.com', slug: 'free' })
  t.ok(Date.now() - started < 1000, `no wait for the refused call's reservation (${Date.now() - started} ms)`)
  t.match(await ts.call('get_client', { client_id: created }, org.key), { name: 'Blocked', slug: 'free' })
})

t.test('without a slug, add_client derives one from the name, unique among the organization’s live clients', async (t) => {
  const { ts, org } = await setup(t)
  const slugOf = async (id: number) => (await ts.call<{ slug: string }>('get_client', { client_id: id }, org.key)).slug
  const first = await add(ts, org, { name: 'Café Olé Plumbing', website_url: 'https://one.example.com' })
  t.equal(await slugOf(first), 'cafe-ole-plumbing')
  const second = await add(ts, org, { name: 'Cafe Ole Plumbing', website_url: 'https://two.example.com' })
  t.equal(await slugOf(second), 'cafe-ole-plumbing-2', 'taken: -2')
  const third = await add(ts, org, { name: 'cafe ole plumbing', website_url: 'https://three.example.com' })
  t.equal(await slugOf(third), 'cafe-ole-plumbing-3', 'then -3')
  t.equal(await ts.call('get_client_id_by_slug', { slug: 'cafe-ole-plumbing-2' }, org.key), second, 'found by its slug')

  const explicit = await add(ts, org, { name: 'Explicit Co', website_url: 'https://explicit.example.com', slug: 'my-own' })
  t.equal(await slugOf(explicit), 'my-own', 'a given slug is kept')
  const none = await add(ts, org, { name: 'No Slug Co', website_url: 'https://none.example.com', slug: '' })
  t.equal(await slugOf(none), '', '"" still means no slug')
  const foreign = await add(ts, org, { name: '東京の歯医者', website_url: 'https://tokyo.example.com' })
  t.equal(await slugOf(foreign), '', 'a name with no ASCII letters gives none')

  // A deleted client's derived slug is free again, like any slug.
  await ts.call('set_client_status', { client_id: first, status: 'deleted' }, org.key)
  const fourth = await add(ts, org, { name: 'Cafe Ole Plumbing', website_url: 'https://four.example.com' })
  t.equal(await slugOf(fourth), 'cafe-ole-plumbing')

  const other = await orgWithKey(ts, 'Other Agency')
  const theirs = await ts.call<number>(
    'add_client',
    { client: { name: 'Café Olé Plumbing', website_url: 'https://one.example.com' } },
    other.key,
  )
  t.equal(
    (await ts.call<{ slug: string }>('get_client', { client_id: theirs }, other.key)).slug,
    'cafe-ole-plumbing',
    'slugs are per organization',
  )
})

t.test('a client renamed, moved or restored answers add_client for its new name and website', async (t) => {
  const { ts, org } = await setup(t)
  const renamed = await add(ts, org, { name: 'Before Co', website_url: 'https://before.example.com' })
  await ts.call('update_client', { client_id: renamed, name: 'After Co', website_url: 'https://after.example.com' }, org.key)
  t.equal(
    await add(ts, org, { name: 'After Co', website_url: 'https://after.example.com' }),
    renamed,
    'the new name and website answer the renamed client',
  )

  const restored = await add(ts, org, { name: 'Phoenix Co', website_url: 'https://phoenix.example.com' })
  await ts.call('set_client_status', { client_id: restored, status: 'deleted' }, org.key)
  await ts.call('set_client_status', { client_id: restored, status: 'active' }, org.key)
  t.equal(
    await add(ts, org, { name: 'Phoenix Co', website_url: 'https://phoenix.example.com' }),
    restored,
    'a restored client answers again',
  )

  // Renamed onto the identity of another live client: that one keeps answering.
  const holder = await add(ts, org, { name: 'Holder Co', website_url: 'https://holder.example.com' })
  const mover = await add(ts, org, { name: 'Mover Co', website_url: 'https://mover.example.com' })
  await ts.call('update_client', { client_id: mover, name: 'Holder Co', website_url: 'https://holder.example.com' }, org.key)
  t.equal(await add(ts, org, { name: 'Holder Co', website_url: 'https://holder.example.com' }), holder, 'the first holder keeps it')
  t.equal(await clientAddedCount(ts), 4, 'no client made by any of these calls')
})
