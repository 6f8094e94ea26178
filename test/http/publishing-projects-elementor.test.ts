/**
 * Elementor pages through the RPCs: recording (sha256, size and widget counts computed), the idempotent
 * re-record, a new stamp replacing the values, the stamps read, removal, the refusals (not JSON, not an array,
 * too large, a bad stamp, an archived project) and another organization answering 404.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'

const widget = (widgetType: string) => ({ id: widgetType.slice(0, 7), elType: 'widget', widgetType, settings: {} })
const section = (...widgets: object[]) => ({ id: 's1', elType: 'section', elements: [{ id: 'c1', elType: 'column', elements: widgets }] })
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

t.test('record, read, re-record and remove Elementor pages', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const projectId = await ts.call<number>('add_website_project', { project: { client_id: client, name: 'Acme rebuild' } }, org.key)

  const homeData = JSON.stringify([section(widget('heading'), widget('image'), widget('heading')), section(widget('button'))])
  const home = {
    project_id: projectId,
    wp_post_id: 12,
    title: 'Home',
    slug: 'home',
    status: 'publish',
    link: 'https://acme-plumbing.example/',
    modified_gmt: '2026-11-03T10:42:17',
    elementor_data: homeData,
  }
  const recorded = await ts.call<any>('record_elementor_page', home, org.key)
  t.same(recorded, {
    ...home,
    client_id: client,
    elementor_data_sha256: sha256(homeData),
    elementor_data_bytes: Buffer.byteLength(homeData),
    widget_counts: { button: 1, heading: 2, image: 1 },
    recorded_at: recorded.recorded_at,
  })
  const aboutData = JSON.stringify([section(widget('text-editor'))])
  const about = await ts.call<any>(
    'record_elementor_page',
    { project_id: projectId, wp_post_id: 14, title: 'About', modified_gmt: '2026-11-02T08:00:00', elementor_data: aboutData },
    org.key,
  )
  t.match(about, { slug: null, status: null, link: null, widget_counts: { 'text-editor': 1 } }, 'slug, status and link are optional')

  const list = await ts.call<any[]>('get_elementor_pages', { project_id: projectId }, org.key)
  t.same(
    list.map((p) => [p.wp_post_id, p.title, p.elementor_data_sha256]),
    [
      [12, 'Home', sha256(homeData)],
      [14, 'About', sha256(aboutData)],
    ],
  )
  t.notOk('elementor_data' in list[0], 'the list leaves the data out')
  t.equal((await ts.call<any>('get_elementor_page', { project_id: projectId, wp_post_id: 12 }, org.key)).elementor_data, homeData)
  t.same(await ts.call('get_elementor_page_stamps', { project_id: projectId }, org.key), [
    { wp_post_id: 12, modified_gmt: '2026-11-03T10:42:17', elementor_data_sha256: sha256(homeData) },
    { wp_post_id: 14, modified_gmt: '2026-11-02T08:00:00', elementor_data_sha256: sha256(aboutData) },
  ])

  // A sync reading the same page again records nothing (the recorded values and time stay).
  const pageCount = async () => (await ts.call<any[]>('get_elementor_pages', { project_id: projectId }, org.key)).length
  const again = await ts.call<any>('record_elementor_page', { ...home, title: 'Home (same stamp)' }, org.key)
  t.equal(again.title, 'Home', 'the same stamp and sha256 record nothing')
  t.equal(again.recorded_at, recorded.recorded_at)
  t.equal(await pageCount(), 2)

  // Edited on the site: a new stamp and data replace the values.
  const editedData = JSON.stringify([section(widget('heading'))])
  const edited = await ts.call<any>(
    'record_elementor_page',
    { ...home, title: 'Welcome', modified_gmt: '2026-11-05T09:00:00', elementor_data: editedData },
    org.key,
  )
  t.match(edited, { title: 'Welcome', modified_gmt: '2026-11-05T09:00:00', widget_counts: { heading: 1 } })
  t.notOk('image' in edited.widget_counts)

  // Refusals: nothing recorded.
  const bad = (changes: object) => ts.rpc('record_elementor_page', { ...home, wp_post_id: 20, ...changes }, org.key)
  expectError(t, await bad({ elementor_data: '{not json' }), 400, 'validation_failed', 'not JSON')
  expectError(t, await bad({ elementor_data: '{"elements":[]}' }), 400, 'validation_failed', 'not an array')
  const big = `[${JSON.stringify('x'.repeat(512 * 1024))}]`
  expectError(t, await bad({ elementor_data: big }), 400, 'validation_failed', 'too large')
  expectError(t, await bad({ modified_gmt: '2026-11-05 09:00:00' }), 400, 'validation_failed', 'a stamp not as WordPress gives it')
  expectError(t, await ts.rpc('get_elementor_page', { project_id: projectId, wp_post_id: 20 }, org.key), 404, 'not_found')

  for (const [method, params] of [
    ['record_elementor_page', home],
    ['remove_elementor_page', { project_id: projectId, wp_post_id: 12 }],
    ['get_elementor_pages', { project_id: projectId }],
    ['get_elementor_page', { project_id: projectId, wp_post_id: 12 }],
    ['get_elementor_page_stamps', { project_id: projectId }],
  ] as const) {
    expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', `${method} from another organization`)
  }

  // Gone from the site.
  t.equal(await ts.call('remove_elementor_page', { project_id: projectId, wp_post_id: 14 }, org.key), true)
  t.equal(await ts.call('remove_elementor_page', { project_id: projectId, wp_post_id: 14 }, org.key), false, 'removed before')
  expectError(t, await ts.rpc('remove_elementor_page', { project_id: projectId, wp_post_id: 99 }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_elementor_page', { project_id: projectId, wp_post_id: 14 }, org.key), 404, 'not_found')
  t.same(
    (await ts.call<any[]>('get_elementor_page_stamps', { project_id: projectId }, org.key)).map((s) => s.wp_post_id),
    [12],
  )
  // Back on the site: the same stamp and data record it again.
  await ts.call(
    'record_elementor_page',
    { project_id: projectId, wp_post_id: 14, title: 'About', modified_gmt: '2026-11-02T08:00:00', elementor_data: aboutData },
    org.key,
  )
  t.equal(await pageCount(), 2, 'a removed page recorded again is back')

  await ts.call('set_website_project_status', { project_id: projectId, status: 'archived' }, org.key)
  expectError(
    t,
    await ts.rpc('record_elementor_page', { ...home, modified_gmt: '2026-11-06T09:00:00' }, org.key),
    409,
    'website_project_archived',
  )
  t.equal(await pageCount(), 2, 'an archived project still reads')
})
