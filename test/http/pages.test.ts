/**
 * Pages and snapshots through the RPCs: add_page get-or-create by URL, slugs, wp_post_id uniqueness,
 * get_pages_for_client filters and paging, deactivate_pages_not_in_list, add_snapshot and the snapshot
 * reads, and another organization's pages answering like missing ones.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, withoutIds } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  return { ts, org, other, clientId }
}

t.test('add_page is get-or-create by URL; get_pages_for_client lists, filters and pages', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const home = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://acme.example.com/', title: 'Home', wp_post_id: 10 } },
    org.key,
  )
  const services = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://acme.example.com/services/drains' } },
    org.key,
  )
  t.ok(Number.isInteger(home) && home > 0)
  const again = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://ACME.example.com/services/drains/', title: 'Drains' } },
    org.key,
  )
  t.equal(again, services, 'the same URL (host case, trailing slash) is the same page')

  const pages = await ts.call<any[]>('get_pages_for_client', { client_id: clientId }, org.key)
  t.same(
    pages.map((p) => ({ page_id: p.page_id, url: p.url, slug: p.slug, wp_post_id: p.wp_post_id, title: p.title, active: p.active })),
    [
      { page_id: home, url: 'https://acme.example.com/', slug: '', wp_post_id: 10, title: 'Home', active: true },
      {
        page_id: services,
        url: 'https://acme.example.com/services/drains',
        slug: 'drains',
        wp_post_id: null,
        title: 'Drains',
        active: true,
      },
    ],
    'slug defaults to the last path segment; the second add_page set the title',
  )
  const paged = await ts.call<any[]>('get_pages_for_client', { client_id: clientId, limit: 1, offset: 1 }, org.key)
  t.same(
    paged.map((p) => p.page_id),
    [services],
    'limit and offset',
  )

  const taken = await ts.rpc('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/x', wp_post_id: 10 } }, org.key)
  expectError(t, taken, 409, 'page_wp_post_id_taken')
})

t.test('deactivate_pages_not_in_list marks the unlisted active pages inactive, once', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const a = await ts.call<number>('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/a' } }, org.key)
  const b = await ts.call<number>('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/b' } }, org.key)
  const c = await ts.call<number>('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/c' } }, org.key)
  const first = await ts.call(
    'deactivate_pages_not_in_list',
    { client_id: clientId, active_urls: ['https://acme.example.com/a/'] },
    org.key,
  )
  t.same(first, { deactivated: 2, page_ids: [b, c] })
  const second = await ts.call(
    'deactivate_pages_not_in_list',
    { client_id: clientId, active_urls: ['https://acme.example.com/a'] },
    org.key,
  )
  t.same(second, { deactivated: 0, page_ids: [] }, 'already inactive pages are not counted again')
  const active = await ts.call<any[]>('get_pages_for_client', { client_id: clientId, active_only: true }, org.key)
  t.same(
    active.map((p) => p.page_id),
    [a],
  )
  await ts.call('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/b', active: true } }, org.key)
  const after = await ts.call<any[]>('get_pages_for_client', { client_id: clientId, active_only: true }, org.key)
  t.same(
    after.map((p) => p.page_id),
    [a, b],
    'add_page with active true reactivates',
  )
})

t.test('snapshots: add_snapshot, get_latest_snapshot, get_snapshots_for_page newest first', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const page = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://acme.example.com/about', title: 'About' } },
    org.key,
  )
  t.equal(await ts.call('get_latest_snapshot', { page_id: page }, org.key), null, 'no snapshot yet')
  const s1 = await ts.call<number>('add_snapshot', { snapshot: { page_id: page, content: 'First version' } }, org.key)
  const s2 = await ts.call<number>('add_snapshot', { snapshot: { page_id: page, content: 'Second version', title: 'About us' } }, org.key)
  const latest = await ts.call<any>('get_latest_snapshot', { page_id: page }, org.key)
  t.match(latest, {
    snapshot_id: s2,
    page_id: page,
    client_id: clientId,
    title: 'About us',
    content: 'Second version',
    source: 'add_snapshot',
    edit_id: null,
  })
  const all = await ts.call<any[]>('get_snapshots_for_page', { page_id: page }, org.key)
  t.same(
    all.map((s) => [s.snapshot_id, s.title, s.content]),
    [
      [s2, 'About us', 'Second version'],
      [s1, 'About', 'First version'],
    ],
    "newest first; the title defaults to the page's",
  )
  const one = await ts.call<any[]>('get_snapshots_for_page', { page_id: page, limit: 1 }, org.key)
  t.equal(one.length, 1)
})

t.test("another organization's pages and clients answer like missing ones", async (t) => {
  const { ts, org, other, clientId } = await setup(t)
  const page = await ts.call<number>('add_page', { page: { client_id: clientId, url: 'https://acme.example.com/' } }, org.key)
  const missing = await ts.rpc('get_latest_snapshot', { page_id: 999_999 }, other.key)
  const foreign = await ts.rpc('get_latest_snapshot', { page_id: page }, other.key)
  expectError(t, foreign, 404, 'not_found')
  t.same(withoutIds(foreign.json(), [page]), withoutIds(missing.json(), [999_999]), 'the same body as a missing page')
  expectError(t, await ts.rpc('add_snapshot', { snapshot: { page_id: page, content: 'x' } }, other.key), 404, 'not_found')
  expectError(t, await ts.rpc('add_page', { page: { client_id: clientId, url: 'https://x.example/' } }, other.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_pages_for_client', { client_id: clientId }, other.key), 404, 'not_found')
  expectError(t, await ts.rpc('deactivate_pages_not_in_list', { client_id: clientId, active_urls: [] }, other.key), 404, 'not_found')
})
