/**
 * Crawled snapshots and the snapshot reads: recordCrawledPages driven directly with hand-built PageStates
 * (pages get-or-created by URL, a snapshot only when the content hash changed, the site changes appended with
 * it, attribution to a site edit, an idempotent retry and two writers racing), then every read of the
 * snapshots sub-area and the pages area's snapshot reads showing the state, and another organization's page
 * or client answering like a missing one.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { recordCrawledPages, type CrawledPage, type RecordCrawledPagesInput } from '../../commands/monitoring/snapshots.js'
import { recordSnapshot } from '../../commands/pages.js'
import { SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'
import { seedSandboxSnapshots } from '../../ops/sandbox/seed-monitoring-snapshots.js'
import type { Position } from '../../commands/event-store/port.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { pageState } from './monitoring-snapshots-states.js'
import { readModelsAt, readModelsCaughtUp } from '../support/read-models.js'

const SITE = 'https://acme-plumbing.example.com'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  let now = new Date('2026-03-01T09:00:00Z')
  const ts = await startTestSystem(t, { clock: () => now })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const otherClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)
  const record = async (pages: CrawledPage[], extra: Partial<RecordCrawledPagesInput> = {}) => {
    const result = await recordCrawledPages(ts.system.write, systemContext('test-scan'), {
      orgId: org.orgId,
      clientId,
      scanId: 7,
      source: 'crawl',
      pages,
      ...extra,
    })
    await settle(ts, result.position)
    return result
  }
  const setDay = (iso: string) => {
    now = new Date(iso)
  }
  return { ts, org, other, clientId, otherClient, record, setDay }
}

/**
 * Waits until the read models hold `position`. A loaded machine may take longer than a quiet one; reading before
 * they do would test nothing, so a wait that ends without reaching it fails here rather than in the reads.
 */
async function settle(ts: TestSystem, position: Position | null) {
  await readModelsAt(ts, position)
}

t.test('recordCrawledPages: pages created, a snapshot only on change, changes with it, an idempotent retry', async (t) => {
  const { ts, org, clientId, record } = await setup(t)
  // A page the agency added as a site path, and one with an absolute URL: the crawl finds both by URL.
  const about = await ts.call<number>('add_page', { page: { client_id: clientId, url: '/about', title: 'About us' } }, org.key)
  const home = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/` } }, org.key)

  const homeState = pageState({ url: `${SITE}/`, title: 'Acme Plumbing' })
  const aboutState = pageState({ url: `${SITE}/about/`, title: 'About Acme' })
  const drainsState = pageState({ url: `${SITE}/drains`, title: 'Drain Cleaning', main_text: 'Drain cleaning in Austin. Same day.' })
  const first = await record([
    { url: homeState.url, state: homeState, etag: '"h1"' },
    { url: aboutState.url, state: aboutState, lastModified: 'Sun, 01 Mar 2026 08:00:00 GMT' },
    { url: drainsState.url, state: drainsState },
    { url: `${SITE}/Drains/`.replace('/Drains/', '/drains/'), state: drainsState },
  ])
  t.equal(first.results.length, 4, 'one result per page given, in order')
  t.equal(first.results[0]!.pageId, home, 'the known absolute URL is the known page')
  t.equal(first.results[1]!.pageId, about, 'the site-path page is found by the URL’s path')
  const drains = first.results[2]!.pageId
  t.equal(first.results[3]!.pageId, drains, 'the same URL twice in a batch is one page')
  t.ok(
    first.results.slice(0, 3).every((r) => r.snapshotId !== null && r.changes === 1),
    'first observations: a snapshot and page_added each',
  )
  t.equal(first.results[3]!.snapshotId, null, 'the duplicate in the batch said the same: nothing recorded')

  const pages = await ts.call<any[]>('get_pages_for_client', { client_id: clientId }, org.key)
  const added = pages.find((p) => p.page_id === drains)
  t.match(
    added,
    { url: `${SITE}/drains`, slug: 'drains', title: 'Drain Cleaning', active: true },
    'a crawled page is added active with its title',
  )
  t.equal(pages.find((p) => p.page_id === about).title, 'About us', 'a known page keeps its title')

  const latest = await ts.call('get_latest_snapshot', { page_id: drains }, org.key)
  t.match(latest, { source: 'crawl', scan_id: 7, content: 'Drain cleaning in Austin. Same day.', title: 'Drain Cleaning', etag: null })
  t.same(latest.state, drainsState, 'the whole state comes back, main text included')
  const homeLatest = await ts.call('get_latest_snapshot', { page_id: home }, org.key)
  t.equal(homeLatest.etag, '"h1"', 'the ETag is kept for the next conditional request')
  const aboutLatest = await ts.call('get_latest_snapshot', { page_id: about }, org.key)
  t.equal(aboutLatest.last_modified, 'Sun, 01 Mar 2026 08:00:00 GMT')

  const eventsBefore = (await streamEvents(ts, `page-${drains}`)).length
  const retry = await record([
    { url: homeState.url, state: homeState },
    { url: aboutState.url, state: aboutState },
    { url: drainsState.url, state: drainsState },
  ])
  t.same(
    retry.results.map((r) => [r.snapshotId, r.changes]),
    [
      [null, 0],
      [null, 0],
      [null, 0],
    ],
    'the same batch again records nothing',
  )
  t.equal(retry.position, null, 'nothing appended at all')
  t.equal((await streamEvents(ts, `page-${drains}`)).length, eventsBefore)

  const retitled = pageState({ ...drainsState, title: 'Drain Cleaning in Austin' })
  const changed = await record([{ url: drainsState.url, state: retitled }])
  t.not(changed.results[0]!.snapshotId, null, 'a changed page records a snapshot')
  t.equal(changed.results[0]!.changes, 1)
  const events = await streamEvents(ts, `page-${drains}`)
  const change = events.at(-1)!
  t.equal(events.at(-2)!.type, 'PageSnapshotRecorded', 'the snapshot and its change, in one append')
  t.match(change, {
    type: 'SiteChangeDetected',
    data: {
      kind: 'title_changed',
      before: 'Drain Cleaning',
      after: 'Drain Cleaning in Austin',
      attribution: 'external',
      snapshot_id: changed.results[0]!.snapshotId,
      previous_snapshot_id: first.results[2]!.snapshotId,
    },
  })
  t.equal(events.at(-2)!.metadata.schema_version, 2, 'PageSnapshotRecorded is written at v2')

  const rendered = await record([{ url: drainsState.url, state: retitled }], { source: 'render' })
  t.not(rendered.results[0]!.snapshotId, null, 'a render is compared with renders: its first one is recorded')
  const renderAgain = await record([{ url: drainsState.url, state: retitled }], { source: 'render' })
  t.equal(renderAgain.results[0]!.snapshotId, null)
  const crawlAgain = await record([{ url: drainsState.url, state: retitled }])
  t.equal(crawlAgain.results[0]!.snapshotId, null, 'a render in between does not make the same crawl new')
})

t.test('a change matching a site edit published since the last crawl is attributed to it', async (t) => {
  const { ts, org, clientId, record } = await setup(t)
  const before = pageState({ url: `${SITE}/pricing`, title: 'Pricing' })
  const first = await record([{ url: before.url, state: before }])
  const pageId = first.results[0]!.pageId
  // What the site-edit publisher records when it applies an edit (processors/site-edits/built-in-publisher.ts).
  const edit = await recordSnapshot(ts.system.write, systemContext('test-publisher'), {
    orgId: org.orgId,
    clientId,
    pageId,
    title: 'Pricing and Plans',
    content: '<h1>Pricing</h1><p>Flat-rate drain cleaning from $99.</p>',
    source: 'site_edit',
    editId: 4242,
  })
  await settle(ts, edit.position)
  const after = pageState({
    ...before,
    title: 'Pricing and Plans',
    main_text: 'Pricing. Flat-rate drain cleaning from $99. Call today for service.',
  })
  const second = await record([{ url: before.url, state: after }])
  t.ok(second.results[0]!.changes >= 2, 'title and body changed')
  const changes = (await streamEvents(ts, `page-${pageId}`)).filter((e) => e.type === 'SiteChangeDetected').map((e) => e.data)
  t.match(
    changes.find((c) => c.kind === 'title_changed'),
    { attribution: 'site_edit', edit_id: 4242 },
  )
  t.match(
    changes.find((c) => c.kind === 'body_changed'),
    { attribution: 'site_edit', edit_id: 4242 },
  )

  const third = pageState({ ...after, title: 'Pricing | Acme' })
  await record([{ url: before.url, state: third }])
  const latest = (await streamEvents(ts, `page-${pageId}`)).filter((e) => e.type === 'SiteChangeDetected').at(-1)!.data
  t.match(latest, { kind: 'title_changed', attribution: 'external', edit_id: null }, 'the edit was seen by the previous crawl: not again')
})

t.test('two writers recording the same batch at once record each snapshot once', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const states = Array.from({ length: 12 }, (_, i) => pageState({ url: `${SITE}/p${i}` }))
  const input = { orgId: org.orgId, clientId, scanId: 9, source: 'crawl' as const, pages: states.map((s) => ({ url: s.url, state: s })) }
  const [a, b] = await Promise.all([
    recordCrawledPages(ts.system.write, systemContext('scan-a'), input),
    recordCrawledPages(ts.system.write, systemContext('scan-b'), input),
  ])
  const recorded = a.results.map((r, i) => [r.snapshotId, b.results[i]!.snapshotId].filter((id) => id !== null).length)
  t.same(recorded, new Array(12).fill(1), 'per page exactly one of the two recorded it')
  t.same(
    a.results.map((r) => r.pageId),
    b.results.map((r) => r.pageId),
    'both got the same page ids',
  )
  for (const r of a.results) {
    const snapshots = (await streamEvents(ts, `page-${r.pageId}`)).filter((e) => e.type === 'PageSnapshotRecorded')
    t.equal(snapshots.length, 1)
  }
  const pages = await streamEvents(ts, `pages-${clientId}`)
  t.equal(pages.filter((e) => e.type === 'PageAdded').length, 12, 'each page added once')
})

t.test('the snapshot reads: dates, first dates, previous, for a date, latest meta by URL, page summaries', async (t) => {
  const { ts, org, clientId, record, setDay } = await setup(t)
  t.same(await ts.call('get_available_snapshot_dates', { client_id: clientId }, org.key), [], 'none yet')
  t.same(await ts.call('get_latest_page_summaries', { client_id: clientId }, org.key), [])

  const v1 = pageState({
    url: `${SITE}/drains/`,
    title: 'Drains',
    meta_description: 'Drain cleaning',
    robots: 'noindex',
    noindex: true,
    headings: [
      { level: 1, text: 'Drain Cleaning' },
      { level: 2, text: 'Prices' },
      { level: 1, text: 'Second H1' },
    ],
    main_text: 'Drain cleaning in Austin costs $99. We come the same day! Is your sink slow? Call us. '.repeat(8),
  })
  const first = await record([{ url: v1.url, state: v1 }])
  const pageId = first.results[0]!.pageId
  setDay('2026-03-03T23:59:00Z')
  const v2 = pageState({ ...v1, title: 'Drain Cleaning' })
  const second = await record([{ url: v1.url, state: v2 }])
  setDay('2026-03-05T08:00:00Z')
  const v3 = pageState({ ...v2, robots: null, noindex: false })
  const third = await record([{ url: v1.url, state: v3 }])
  const manual = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${SITE}/contact` } }, org.key)

  t.same(await ts.call('get_available_snapshot_dates', { client_id: clientId }, org.key), ['2026-03-05', '2026-03-03', '2026-03-01'])
  t.same(await ts.call('get_first_snapshot_dates', { client_id: clientId }, org.key), [
    { page_id: pageId, url: `${SITE}/drains/`, first_snapshot_id: first.results[0]!.snapshotId, first_snapshot_date: '2026-03-01' },
  ])

  const previous = await ts.call('get_previous_snapshot', { page_id: pageId }, org.key)
  t.equal(previous.snapshot_id, second.results[0]!.snapshotId, 'the one before the latest')
  t.equal(previous.state.title, 'Drain Cleaning')
  t.equal(await ts.call('get_previous_snapshot', { page_id: manual }, org.key), null, 'a page without two snapshots: null')

  const forDay = async (day: string) =>
    (await ts.call('get_snapshot_for_date', { page_id: pageId, target_date: day }, org.key))?.snapshot_id ?? null
  t.equal(await forDay('2026-02-28'), null, 'before the first snapshot: null')
  t.equal(await forDay('2026-03-01'), first.results[0]!.snapshotId)
  t.equal(await forDay('2026-03-02'), first.results[0]!.snapshotId, 'a day without one shows the last before it')
  t.equal(await forDay('2026-03-03'), second.results[0]!.snapshotId, 'the end of the UTC day counts')
  t.equal(await forDay('2026-03-04'), second.results[0]!.snapshotId)
  t.equal(await forDay('2030-01-01'), third.results[0]!.snapshotId)
  expectError(t, await ts.rpc('get_snapshot_for_date', { page_id: pageId, target_date: '2026-02-30' }, org.key), 400, 'validation_failed')

  const meta = await ts.call(
    'get_latest_meta_for_page_url',
    { client_id: clientId, page_url: 'HTTPS://ACME-PLUMBING.example.com/drains#top' },
    org.key,
  )
  t.same(meta, {
    page_id: pageId,
    url: `${SITE}/drains/`,
    snapshot_id: third.results[0]!.snapshotId,
    source: 'crawl',
    recorded_at: '2026-03-05T08:00:00.000Z',
    status: 200,
    final_url: `${SITE}/drains/`,
    title: 'Drain Cleaning',
    meta_description: 'Drain cleaning',
    canonical: `${SITE}/drains/`,
    robots: null,
    noindex: false,
    h1: ['Drain Cleaning', 'Second H1'],
  })
  t.equal(
    await ts.call('get_latest_meta_for_page_url', { client_id: clientId, page_url: `${SITE}/contact/` }, org.key),
    null,
    'no crawl yet: null',
  )
  expectError(
    t,
    await ts.rpc('get_latest_meta_for_page_url', { client_id: clientId, page_url: `${SITE}/nowhere` }, org.key),
    404,
    'not_found',
  )

  const summaries = await ts.call<any[]>('get_latest_page_summaries', { client_id: clientId }, org.key)
  t.equal(summaries.length, 2, 'every active page')
  t.match(summaries[0], {
    page_id: pageId,
    snapshot_id: third.results[0]!.snapshotId,
    status: 200,
    title: 'Drain Cleaning',
    meta_description: 'Drain cleaning',
    h1: ['Drain Cleaning', 'Second H1'],
    word_count: v3.word_count,
  })
  t.ok(summaries[0].summary.startsWith('Drain cleaning in Austin costs $99. We come the same day!'), 'the first sentences')
  t.ok(summaries[0].summary.length <= 300 && /[.!?]$/.test(summaries[0].summary), 'whole sentences, at most 300 characters')
  t.same(summaries[1], {
    page_id: manual,
    url: `${SITE}/contact`,
    snapshot_id: null,
    recorded_at: null,
    status: null,
    title: null,
    meta_description: null,
    h1: [],
    word_count: null,
    summary: null,
  })
  await ts.call('deactivate_pages_not_in_list', { client_id: clientId, active_urls: [`${SITE}/drains`] }, org.key)
  t.equal((await ts.call<any[]>('get_latest_page_summaries', { client_id: clientId }, org.key)).length, 1, 'inactive pages left out')

  const listed = await ts.call<any[]>('get_snapshots_for_page', { page_id: pageId }, org.key)
  t.same(
    listed.map((s) => [s.source, s.state?.title]),
    [
      ['crawl', 'Drain Cleaning'],
      ['crawl', 'Drain Cleaning'],
      ['crawl', 'Drains'],
    ],
    'get_snapshots_for_page shows the states, newest first',
  )
  const posted = await ts.call<number>('add_snapshot', { snapshot: { page_id: manual, content: '<p>Call us</p>' } }, org.key)
  t.match(await ts.call('get_latest_snapshot', { page_id: manual }, org.key), {
    snapshot_id: posted,
    source: 'add_snapshot',
    state: null,
    scan_id: null,
    etag: null,
    last_modified: null,
  })
})

t.test("another organization's page or client answers like a missing one", async (t) => {
  const { ts, other, otherClient, clientId, record } = await setup(t)
  const state = pageState({ url: `${SITE}/` })
  const pageId = (await record([{ url: state.url, state }])).results[0]!.pageId
  const missingPage = 999_999
  const missingClient = 999_998
  for (const [method, params, missingParams] of [
    ['get_available_snapshot_dates', { client_id: clientId }, { client_id: missingClient }],
    ['get_first_snapshot_dates', { client_id: clientId }, { client_id: missingClient }],
    ['get_latest_page_summaries', { client_id: clientId }, { client_id: missingClient }],
    ['get_latest_meta_for_page_url', { client_id: clientId, page_url: state.url }, { client_id: missingClient, page_url: state.url }],
    ['get_previous_snapshot', { page_id: pageId }, { page_id: missingPage }],
    ['get_snapshot_for_date', { page_id: pageId, target_date: '2026-03-01' }, { page_id: missingPage, target_date: '2026-03-01' }],
  ] as const) {
    const theirs = await ts.rpc(method, params, other.key)
    const missing = await ts.rpc(method, missingParams, other.key)
    expectError(t, theirs, 404, 'not_found', method)
    expectError(t, missing, 404, 'not_found', method)
    t.same(
      withoutIds(theirs.json(), [clientId, pageId]),
      withoutIds(missing.json(), [missingClient, missingPage]),
      `${method}: the same body`,
    )
  }
  t.same(await ts.call('get_available_snapshot_dates', { client_id: otherClient }, other.key), [], 'their own client answers')
})

t.test("the sandbox's crawled snapshots: three weekly crawls, a snapshot only where a page changed", async (t) => {
  const { ts, org, clientId, setDay } = await setup(t)
  setDay('2026-10-29T12:00:00Z')
  const base = SANDBOX_CLIENT.websiteUrl.replace(/\/+$/, '')
  const home = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${base}/`, title: 'Home' } }, org.key)
  const drains = await ts.call<number>('add_page', { page: { client_id: clientId, url: `${base}/services/drain-cleaning` } }, org.key)
  await seedSandboxSnapshots(ts.system.write, systemContext('sandbox-seed'), org.orgId, clientId)
  await readModelsCaughtUp(ts)
  t.same(await ts.call('get_available_snapshot_dates', { client_id: clientId }, org.key), ['2026-10-22', '2026-10-15', '2026-10-08'])
  t.equal((await ts.call<any[]>('get_snapshots_for_page', { page_id: home }, org.key)).length, 1, 'the home page never changed')
  const drainSnapshots = await ts.call<any[]>('get_snapshots_for_page', { page_id: drains }, org.key)
  t.same(
    drainSnapshots.map((s) => s.created_at.slice(0, 10)),
    ['2026-10-22', '2026-10-15', '2026-10-08'],
    'drain cleaning changed every week',
  )
  t.ok(drainSnapshots.every((s) => s.source === 'crawl' && s.scan_id === null && s.etag !== null))
  const summaries = await ts.call<any[]>('get_latest_page_summaries', { client_id: clientId }, org.key)
  t.same(
    summaries.map((s) => [s.page_id, s.status, s.summary !== null]),
    [
      [home, 200, true],
      [drains, 200, true],
    ],
  )
  const pages = await ts.call<any[]>('get_pages_for_client', { client_id: clientId }, org.key)
  t.equal(pages.length, 2, 'the crawls found the pages the site seed added')
})
