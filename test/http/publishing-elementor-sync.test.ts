/**
 * sync_elementor_pages against the local WordPress stand-in: the site's Elementor pages are recorded with their
 * stamps (plain pages left out, data the records refuse listed as skipped), a page edited on the site is recorded
 * again and the rest change nothing, a page deleted on the site is removed; a client without a connection, a
 * site failure and another organization's project answer their codes.
 */
import t from 'tap'
import { startWordPressStandIn, standInSettings } from '../support/stand-ins/wordpress.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'
import { LOOPBACK_ALLOWED, TEST_SERVICE_KEY } from './webhooks-helpers.js'

const layout = (title: string) =>
  JSON.stringify([
    {
      id: 's1',
      elType: 'section',
      settings: {},
      elements: [{ id: 'w1', elType: 'widget', widgetType: 'heading', settings: { title }, elements: [] }],
    },
  ])

t.test('sync_elementor_pages records, re-records on change, removes what the site lost', async (t) => {
  const wp = await startWordPressStandIn({ elementor: true })
  t.teardown(() => wp.close())
  const ts = await startTestSystem(t, {
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED },
    publishing: standInSettings({ maxAttempts: 1 }),
  })
  const org = await orgWithKey(ts, 'Harbor')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Harbor Street Bakery'), org.key)
  const projectId = await ts.call<number>('add_website_project', { project: { client_id: clientId, name: 'Harbor rebuild' } }, org.key)
  const home = wp.site.addPage({ title: 'Home', meta: { _elementor_data: layout('Fresh bread') } })
  const menu = wp.site.addPage({ title: 'Menu', status: 'draft', meta: { _elementor_data: layout('Our menu') } })
  wp.site.addPage({ title: 'Privacy', content: '<p>Plain page</p>' })
  const huge = wp.site.addPage({ title: 'Gallery', meta: { _elementor_data: layout('x'.repeat(600 * 1024)) } })

  expectError(t, await ts.rpc('sync_elementor_pages', { project_id: projectId }, org.key), 409, 'site_not_connected')
  await ts.call(
    'set_client_wordpress',
    { client_id: clientId, base_url: wp.url, username: wp.username, application_password: wp.applicationPassword },
    org.key,
  )

  const first = await ts.call('sync_elementor_pages', { project_id: projectId }, org.key)
  t.match(first, { seen: 4, elementor: 3, recorded: 2, unchanged: 0, removed: 0, skipped_count: 1, complete: true })
  t.match(first.skipped, [{ wp_post_id: huge.id, reason: /bytes|large|KiB/i }])
  const stamps = await ts.call<any[]>('get_elementor_page_stamps', { project_id: projectId }, org.key)
  t.same(
    stamps.map((s) => [s.wp_post_id, s.modified_gmt]),
    [
      [home.id, home.modified_gmt],
      [menu.id, menu.modified_gmt],
    ],
    "the site's stamps, the draft included",
  )
  t.match(await ts.call('get_elementor_page', { project_id: projectId, wp_post_id: home.id }, org.key), {
    title: 'Home',
    status: 'publish',
    elementor_data: layout('Fresh bread'),
    widget_counts: { heading: 1 },
  })

  // Edited on the site: recorded again; the other stays.
  const edited = wp.site.editOnSite('page', home.id, { meta: { _elementor_data: layout('Fresh rye') } })
  t.match(await ts.call('sync_elementor_pages', { project_id: projectId }, org.key), { recorded: 1, unchanged: 1, removed: 0 })
  t.equal((await ts.call('get_elementor_page', { project_id: projectId, wp_post_id: home.id }, org.key)).modified_gmt, edited.modified_gmt)

  // Deleted on the site: removed from the records.
  wp.site.remove('page', menu.id)
  t.match(await ts.call('sync_elementor_pages', { project_id: projectId }, org.key), { recorded: 0, unchanged: 1, removed: 1 })
  expectError(t, await ts.rpc('get_elementor_page', { project_id: projectId, wp_post_id: menu.id }, org.key), 404, 'not_found')

  // A site failure: its category, nothing removed.
  wp.site.failNext(1, 500)
  const failed = await ts.rpc('sync_elementor_pages', { project_id: projectId }, org.key)
  expectError(t, failed, 502, 'site_publish_failed')
  t.match(failed.json().detail, /^server_error: /)
  t.equal((await ts.call<any[]>('get_elementor_pages', { project_id: projectId }, org.key)).length, 1)

  expectError(t, await ts.rpc('sync_elementor_pages', { project_id: projectId }, other.key), 404, 'not_found')
})
