/**
 * Sitemap pages through the RPCs: add (default slugs and positions), the tree order with depth and path,
 * update (slug taken, a loop refused), the status flow to published with its post id, deletes with and
 * without children, an archived project read-only, and another organization's page answering 404.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'

t.test('plan, reorder, publish and delete sitemap pages', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const projectId = await ts.call<number>('add_website_project', { project: { client_id: client, name: 'Acme rebuild' } }, org.key)
  const add = (params: Record<string, unknown>) => ts.call<any>('add_sitemap_page', { project_id: projectId, ...params }, org.key)

  const home = await add({ title: 'Home', page_type: 'home' })
  t.match(home, { slug: '', path: '/', depth: 1, position: 0, status: 'planned', page_type: 'home', wp_post_id: null, client_id: client })
  const services = await add({ title: 'Our Services', page_type: 'service' })
  t.equal(services.slug, 'our-services', 'the slug defaults to the title')
  t.equal(services.position, 1, 'after the last sibling')
  const drains = await add({ title: 'Drain cleaning', parent_id: services.id, primary_keyword: 'drain cleaning austin', status: 'drafted' })
  t.match(drains, { slug: 'drain-cleaning', depth: 2, path: '/our-services/drain-cleaning/', status: 'drafted' })
  const heaters = await add({ title: 'Water heaters', parent_id: services.id, position: 0 })
  const about = await add({ title: 'About', slug: 'about-us', page_type: 'about' })

  const order = async (status?: string) =>
    (await ts.call<any[]>('get_sitemap_pages_for_project', { project_id: projectId, ...(status ? { status } : {}) }, org.key)).map(
      (p) => p.id,
    )
  t.same(await order(), [home.id, services.id, drains.id, heaters.id, about.id], 'tree order, siblings by position then id')
  t.same(await order('drafted'), [drains.id])

  expectError(
    t,
    await ts.rpc('add_sitemap_page', { project_id: projectId, title: 'About', slug: 'about-us' }, org.key),
    409,
    'sitemap_page_slug_taken',
  )
  expectError(
    t,
    await ts.rpc('add_sitemap_page', { project_id: projectId, title: 'Bad', slug: 'Not A Slug' }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('update_sitemap_page', { page_id: services.id, parent_id: drains.id }, org.key),
    409,
    'sitemap_page_parent_invalid',
    'a page under its own child',
  )
  const otherProject = await ts.call<number>('add_website_project', { project: { client_id: client, name: 'Second' } }, org.key)
  const elsewhere = await ts.call<any>('add_sitemap_page', { project_id: otherProject, title: 'Elsewhere' }, org.key)
  expectError(
    t,
    await ts.rpc('update_sitemap_page', { page_id: about.id, parent_id: elsewhere.id }, org.key),
    409,
    'sitemap_page_parent_invalid',
    "another project's page",
  )
  const moved = await ts.call<any>(
    'update_sitemap_page',
    { page_id: about.id, parent_id: home.id, title: 'About Acme', primary_keyword: '' },
    org.key,
  )
  t.match(moved, { parent_id: home.id, title: 'About Acme', path: '/about-us/', depth: 2, primary_keyword: null })

  expectError(t, await ts.rpc('set_sitemap_page_status', { page_id: drains.id, status: 'published' }, org.key), 400, 'validation_failed')
  const published = await ts.call<any>('set_sitemap_page_status', { page_id: drains.id, status: 'published', wp_post_id: 812 }, org.key)
  t.match(published, { status: 'published', wp_post_id: 812 })
  expectError(
    t,
    await ts.rpc('set_sitemap_page_status', { page_id: drains.id, status: 'planned' }, org.key),
    409,
    'sitemap_page_status_invalid',
  )
  t.same(await ts.call('get_sitemap_page', { page_id: drains.id }, org.key), published)

  expectError(t, await ts.rpc('delete_sitemap_page', { page_id: services.id }, org.key), 409, 'sitemap_page_has_children')
  const removed = await ts.call<any>('delete_sitemap_page', { page_id: services.id, with_children: true }, org.key)
  t.same(removed.deleted_page_ids.sort(), [services.id, heaters.id, drains.id].sort())
  t.same(
    await ts.call('delete_sitemap_page', { page_id: services.id }, org.key),
    { deleted_page_ids: [] },
    'deleting again changes nothing',
  )
  t.same(await order(), [home.id, about.id])
  t.ok((await ts.call<any>('get_sitemap_page', { page_id: drains.id }, org.key)).deleted_at, 'a deleted page still answers')
  expectError(t, await ts.rpc('update_sitemap_page', { page_id: drains.id, title: 'Back' }, org.key), 409, 'sitemap_page_deleted')
  const again = await add({ title: 'Services again', slug: 'our-services' })
  t.equal(again.slug, 'our-services', "a deleted page's slug is free again")

  for (const [method, params] of [
    ['get_sitemap_page', { page_id: home.id }],
    ['get_sitemap_pages_for_project', { project_id: projectId }],
    ['add_sitemap_page', { project_id: projectId, title: 'Intruder' }],
    ['update_sitemap_page', { page_id: home.id, title: 'Intruder' }],
    ['set_sitemap_page_status', { page_id: home.id, status: 'drafting' }],
    ['delete_sitemap_page', { page_id: home.id }],
  ] as const) {
    expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', `${method} from another organization`)
  }

  await ts.call('set_website_project_status', { project_id: projectId, status: 'archived' }, org.key)
  expectError(t, await ts.rpc('add_sitemap_page', { project_id: projectId, title: 'Late' }, org.key), 409, 'website_project_archived')
  expectError(
    t,
    await ts.rpc('set_sitemap_page_status', { page_id: home.id, status: 'drafting' }, org.key),
    409,
    'website_project_archived',
  )
  t.same(await order(), [home.id, about.id, again.id], 'an archived project still reads')
})
