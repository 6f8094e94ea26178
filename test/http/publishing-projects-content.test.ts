/**
 * Generated content through the RPCs: versions per page and kind (the latest current), exported and pushed
 * flags, the client-wide reads and counts (current versions of live pages only), and the refusals.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'

t.test('record, version, export and push generated content', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const projectId = await ts.call<number>('add_website_project', { project: { client_id: client, name: 'Acme rebuild' } }, org.key)
  const home = await ts.call<any>('add_sitemap_page', { project_id: projectId, title: 'Home', page_type: 'home' }, org.key)
  const drains = await ts.call<any>('add_sitemap_page', { project_id: projectId, title: 'Drain cleaning' }, org.key)
  const record = (sitemap_page_id: number, kind: string, body: string, writer?: string) =>
    ts.call<any>('record_generated_content', { sitemap_page_id, kind, body, ...(writer ? { writer } : {}) }, org.key)

  const v1 = await record(drains.id, 'page_copy', '<h1>Drains</h1>')
  t.match(v1, { version: 1, is_current: true, writer: 'built-in', exported: false, pushed: false, wp_post_id: null, project_id: projectId })
  const v2 = await record(drains.id, 'page_copy', '<h1>Drain cleaning</h1>', 'claude-sonnet-4-5')
  t.match(v2, { version: 2, is_current: true, writer: 'claude-sonnet-4-5' })
  const meta = await record(drains.id, 'meta', 'Drain cleaning | Acme')
  t.equal(meta.version, 1, 'versions count per kind')
  const homeCopy = await record(home.id, 'page_copy', '<h1>Acme</h1>')

  const forPage = await ts.call<any[]>('get_generated_content_for_page', { sitemap_page_id: drains.id }, org.key)
  t.same(
    forPage.map((c) => [c.id, c.is_current]),
    [
      [meta.id, true],
      [v2.id, true],
      [v1.id, false],
    ],
  )
  t.equal((await ts.call<any[]>('get_generated_content_for_project', { project_id: projectId }, org.key)).length, 4)
  t.equal((await ts.call<any[]>('get_generated_content_for_project', { project_id: projectId, current_only: true }, org.key)).length, 3)
  const all = await ts.call<any[]>('get_all_content_for_client', { client_id: client, limit: 2 }, org.key)
  t.same(
    all.map((c) => c.id),
    [homeCopy.id, meta.id],
    'newest first, paged',
  )

  const unexported = async () => (await ts.call<any[]>('get_unexported_content', { client_id: client }, org.key)).map((c) => c.id)
  t.same(await unexported(), [v2.id, meta.id, homeCopy.id], 'current versions only')
  t.equal(await ts.call('mark_content_exported', { content_ids: [v2.id, v1.id] }, org.key), 2)
  t.equal(await ts.call('mark_content_exported', { content_ids: [v2.id, meta.id] }, org.key), 1, 'one exported before')
  t.same(await unexported(), [homeCopy.id])

  t.equal(await ts.call('count_unpushed_content_for_client', { client_id: client }, org.key), 3)
  const pushed = await ts.call<any>('mark_content_pushed', { content_id: v2.id, wp_post_id: 812 }, org.key)
  t.match(pushed, { pushed: true, wp_post_id: 812, exported: true })
  t.equal(await ts.call('count_unpushed_content_for_client', { client_id: client }, org.key), 2)
  // A deleted page's content waits for nothing.
  await ts.call('delete_sitemap_page', { page_id: home.id }, org.key)
  t.equal(await ts.call('count_unpushed_content_for_client', { client_id: client }, org.key), 1)
  t.same(await unexported(), [])
  expectError(
    t,
    await ts.rpc('record_generated_content', { sitemap_page_id: home.id, kind: 'meta', body: 'x' }, org.key),
    409,
    'sitemap_page_deleted',
  )
  expectError(
    t,
    await ts.rpc('record_generated_content', { sitemap_page_id: drains.id, kind: 'essay', body: 'x' }, org.key),
    400,
    'validation_failed',
  )

  for (const [method, params] of [
    ['record_generated_content', { sitemap_page_id: drains.id, kind: 'meta', body: 'x' }],
    ['mark_content_exported', { content_ids: [homeCopy.id] }],
    ['mark_content_pushed', { content_id: v2.id, wp_post_id: 1 }],
    ['get_generated_content_for_page', { sitemap_page_id: drains.id }],
    ['get_generated_content_for_project', { project_id: projectId }],
    ['get_all_content_for_client', { client_id: client }],
    ['get_unexported_content', { client_id: client }],
    ['count_unpushed_content_for_client', { client_id: client }],
  ] as const) {
    expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', `${method} from another organization`)
  }
})
