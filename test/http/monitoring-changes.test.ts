/**
 * Site changes end to end: pages recorded through the crawl command (recordCrawledPages) with hand-built
 * PageStates, a site edit applied between crawls through apply_site_edit (the built-in publisher), then the
 * reads (order, limit, since, attribution, per page, per month), another organization's client and page
 * answering like missing ones, and one site.change_detected webhook delivered to a receiver on 127.0.0.1.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import type { Position } from '../../commands/event-store/port.js'
import { type CrawledPage, recordCrawledPages } from '../../commands/monitoring/snapshots.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'
import { pageState } from './monitoring-snapshots-states.js'
import { eventually, handClock, LOOPBACK_ALLOWED, startReceiver, TEST_SERVICE_KEY } from './webhooks-helpers.js'
import { readModelsAt } from '../support/read-models.js'

const SITE = 'https://acme-plumbing.example.com'
const DAY = 86_400_000

async function settle(ts: TestSystem, position: Position | null) {
  await readModelsAt(ts, position)
}

function crawler(ts: TestSystem, orgId: number, clientId: number) {
  return async (pages: CrawledPage[]) => {
    const result = await recordCrawledPages(ts.system.write, systemContext('test-scan'), {
      orgId,
      clientId,
      scanId: 1,
      source: 'crawl',
      pages,
    })
    await settle(ts, result.position)
    return result
  }
}

t.test('changes from crawls, attributed, and every read', async (t) => {
  const clock = handClock('2026-09-15T08:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const otherClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)
  const crawl = crawler(ts, org.orgId, clientId)

  // September: the first crawl sees two pages (first observations).
  const home = pageState({ url: `${SITE}/`, title: 'Acme Plumbing' })
  const services = pageState({
    url: `${SITE}/services`,
    title: 'Plumbing services | Acme',
    headings: [{ level: 1, text: 'Plumbing services' }],
    main_text: 'Acme fixes leaking pipes and blocked drains across Austin.',
  })
  const homeId = (await crawl([{ url: home.url, state: home }])).results[0]!.pageId
  clock.advance(60_000)
  const servicesId = (await crawl([{ url: services.url, state: services }])).results[0]!.pageId

  // October: the home page is gone and someone else retitled the services page.
  clock.advance(25 * DAY)
  const retitled = pageState({ ...services, title: 'Our services | Acme' })
  await crawl([{ url: home.url, state: pageState({ ...home, status: 404, title: 'Not found' }) }])
  clock.advance(60_000)
  await crawl([{ url: services.url, state: retitled }])

  // Then this service applies a site edit to the services page, and the November crawl sees it published.
  clock.advance(2 * DAY)
  const editContent = '<h1>Emergency plumbing</h1><p>Our emergency plumbers reach Austin homes within sixty minutes, day or night.</p>'
  const editId = await ts.call<number>(
    'create_site_edit',
    {
      client_id: clientId,
      operation: 'elementor_rewrite',
      payload: JSON.stringify({ proposed_content: editContent, title: 'Emergency plumbing | Acme' }),
      page_url: services.url,
    },
    org.key,
  )
  await ts.call('apply_site_edit', { edit_id: editId, approved_by: 'Dana' }, org.key)
  clock.advance(40 * DAY)
  const edited = pageState({
    ...retitled,
    title: 'Emergency plumbing | Acme',
    headings: [{ level: 1, text: 'Emergency plumbing' }],
    main_text: 'Emergency plumbing. Our emergency plumbers reach Austin homes within sixty minutes, day or night.',
    meta_description: 'Plumbers on call.',
  })
  const third = await crawl([{ url: services.url, state: edited }])
  t.equal(third.results[0]!.changes, 4, 'title, meta description, headings and body')

  await t.test('get_site_changes: newest first, with severity and attribution', async (t) => {
    const all = await ts.call<any[]>('get_site_changes', { client_id: clientId }, org.key)
    t.same(
      all.map((c) => [c.page_id, c.kind, c.attribution]),
      [
        [servicesId, 'body_changed', 'site_edit'],
        [servicesId, 'headings_changed', 'site_edit'],
        [servicesId, 'meta_description_changed', 'external'],
        [servicesId, 'title_changed', 'site_edit'],
        [servicesId, 'title_changed', 'external'],
        [homeId, 'page_gone', 'external'],
        [servicesId, 'page_added', 'unknown'],
        [homeId, 'page_added', 'unknown'],
      ],
    )
    t.match(all[3], {
      client_id: clientId,
      url: services.url,
      severity: 'medium',
      before: 'Our services | Acme',
      after: 'Emergency plumbing | Acme',
      words_changed: null,
      edit_id: editId,
      detected_at: '2026-11-21T08:02:00.000Z',
    })
    t.ok(all[3].snapshot_id > all[3].previous_snapshot_id, 'compared with the previous crawl snapshot')
    t.match(all[0], { words_changed: Number, severity: 'low', edit_id: editId })
    t.match(all[5], { severity: 'high', before: '200', after: '404', detected_at: '2026-10-10T08:01:00.000Z' })
    t.match(all[7], { previous_snapshot_id: null, edit_id: null, severity: 'low' })

    t.same(
      (await ts.call<any[]>('get_site_changes', { client_id: clientId, limit: 2, offset: 1 }, org.key)).map((c) => c.kind),
      ['headings_changed', 'meta_description_changed'],
    )
    const since = await ts.call<any[]>('get_site_changes', { client_id: clientId, since: '2026-10-10' }, org.key)
    t.equal(since.length, 6, 'a day: from its 00:00 UTC')
    const sinceInstant = await ts.call<any[]>('get_site_changes', { client_id: clientId, since: '2026-10-10T09:01:00+01:00' }, org.key)
    t.equal(sinceInstant.length, 6, 'an instant with an offset: 08:01 UTC, the crawl’s time, included')
    const byEdit = await ts.call<any[]>('get_site_changes', { client_id: clientId, attribution: 'site_edit' }, org.key)
    t.same(
      byEdit.map((c) => [c.kind, c.edit_id]),
      [
        ['body_changed', editId],
        ['headings_changed', editId],
        ['title_changed', editId],
      ],
    )
    t.equal((await ts.call<any[]>('get_site_changes', { client_id: clientId, attribution: 'unknown' }, org.key)).length, 2)
    expectError(t, await ts.rpc('get_site_changes', { client_id: clientId, since: 'last week' }, org.key), 400, 'validation_failed')
  })

  await t.test('get_site_changes_for_page', async (t) => {
    const forHome = await ts.call<any[]>('get_site_changes_for_page', { page_id: homeId }, org.key)
    t.same(
      forHome.map((c) => c.kind),
      ['page_gone', 'page_added'],
    )
    const latest = await ts.call<any[]>('get_site_changes_for_page', { page_id: servicesId, limit: 1 }, org.key)
    t.same(
      latest.map((c) => c.kind),
      ['body_changed'],
    )
  })

  await t.test('count_site_changes_by_month: newest first, empty months as zeros', async (t) => {
    t.same(await ts.call('count_site_changes_by_month', { client_id: clientId, months: 4 }, org.key), [
      { month: '2026-11', changes: 4, pages: 1 },
      { month: '2026-10', changes: 2, pages: 2 },
      { month: '2026-09', changes: 2, pages: 2 },
      { month: '2026-08', changes: 0, pages: 0 },
    ])
    const year = await ts.call<any[]>('count_site_changes_by_month', { client_id: clientId }, org.key)
    t.equal(year.length, 12, 'twelve months by default')
    t.equal(year[11].month, '2025-12')
    expectError(t, await ts.rpc('count_site_changes_by_month', { client_id: clientId, months: 0 }, org.key), 400, 'validation_failed')
  })

  await t.test("another organization's client and page answer like missing ones", async (t) => {
    for (const [method, params] of [
      ['get_site_changes', { client_id: clientId }],
      ['count_site_changes_by_month', { client_id: clientId }],
      ['get_site_changes_for_page', { page_id: servicesId }],
    ] as const) {
      const foreign = expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', method)
      const missingParams = 'page_id' in params ? { page_id: 999_999 } : { client_id: 999_999 }
      const missing = expectError(t, await ts.rpc(method, missingParams, other.key), 404, 'not_found', method)
      t.equal(foreign.error.replace(/\d+/g, 'N'), missing.error.replace(/\d+/g, 'N'), `${method}: the same words`)
    }
    t.same(await ts.call('get_site_changes', { client_id: otherClient }, other.key), [], 'their own client: none')
  })
})

t.test('site.change_detected reaches a subscribed webhook', async (t) => {
  const clock = handClock('2026-11-23T10:00:00.000Z')
  const ts = await startTestSystem(t, {
    clock: clock.now,
    runProcessors: true,
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, pollMs: 20 },
  })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const receiver = await startReceiver(t)
  await ts.call('register_webhook', { url: receiver.url(), events: ['site.change_detected'] }, org.key)
  const crawl = crawler(ts, org.orgId, clientId)

  const page = pageState({ url: `${SITE}/pricing`, title: 'Pricing' })
  await crawl([{ url: page.url, state: page }])
  clock.advance(60_000)
  const noindexed = pageState({ ...page, robots: 'noindex', noindex: true })
  const recorded = await crawl([{ url: page.url, state: noindexed }])
  const pageId = recorded.results[0]!.pageId

  const received = await eventually(async () => receiver.received.length >= 2 && receiver.received, 'two deliveries')
  t.ok(received.every((r) => r.headers['x-service-event'] === 'site.change_detected'))
  const bodies = received.map((r) => r.body)
  const [change] = await ts.call<any[]>('get_site_changes', { client_id: clientId, limit: 1 }, org.key)
  const noindex = bodies.find((b) => b.data.kind === 'robots_changed')
  t.match(noindex, {
    event: 'site.change_detected',
    org_id: org.orgId,
    client_id: clientId,
    created_at: '2026-11-23T10:01:00.000Z',
    data: {
      change_id: change.id,
      client_id: clientId,
      page_id: pageId,
      url: page.url,
      kind: 'robots_changed',
      severity: 'high',
      attribution: 'external',
      before: null,
      after: 'noindex',
      detected_at: change.detected_at,
    },
  })
  t.match(
    bodies.find((b) => b.data.kind === 'page_added'),
    { data: { attribution: 'unknown', page_id: pageId } },
  )
})
