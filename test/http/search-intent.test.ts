/**
 * Page search intent end to end, with the processors running and no language model (the rules classify):
 * pages added and snapshotted are classified in the background; the cache is keyed by content hash (a
 * page whose content comes back to something classified is not classified again); a person's override
 * outlives content changes until cleared; classify_page_intents catches up or, with force, classifies
 * again, once per page; inactive and other clients' pages; another organization's ids answer like missing
 * ones; a deleted client takes no writes; the sandbox's pages have their intents.
 */
import t from 'tap'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { pageIntentStream } from '../../domain/search/intent/page-intent.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS } from '../../processors/search/settings.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

interface PageIntent {
  page_id: number
  client_id: number
  url: string
  title: string
  active: boolean
  intent: string | null
  source: string | null
  classified_intent: string | null
  classifier: string | null
  confidence: number | null
  up_to_date: boolean
  content_sha256: string | null
  snapshot_id: number | null
  override: { intent: string; note: string; set_at: string } | null
}

interface CacheEntry {
  content_sha256: string
  current: boolean
  snapshot_id: number | null
  intent: string
  confidence: number
  classifier: string
  model: string | null
  fallback_reason: string | null
  signals: { intent: string; source: string; detail: string; weight: number }[]
  request_id: string | null
  classified_at: string
}

const ts = await startTestSystem(t, { runProcessors: true, search: { ...DEFAULT_SEARCH_PROVIDER_SETTINGS, backoffBaseMs: 10 } })
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const clientId = await ts.call<number>(
  'add_client',
  clientPayload('Acme Plumbing', {
    services: ['Drain cleaning'],
    locations: [{ name: 'Austin, TX', city: 'Austin', state: 'TX', country: 'US' }],
  }),
  org.key,
)
const otherClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)

const addPage = (url: string, title: string, key = org.key, client = clientId) =>
  ts.call<number>('add_page', { page: { client_id: client, url, title } }, key)
const snapshot = (pageId: number, content: string, title?: string) =>
  ts.call<number>('add_snapshot', { snapshot: { page_id: pageId, content, ...(title ? { title } : {}) } }, org.key)
const pagesWithIntent = () => ts.call<PageIntent[]>('get_active_pages_with_intent', { client_id: clientId }, org.key)
const cacheOf = (pageId: number, key = org.key) =>
  ts.call<PageIntent & { entries: CacheEntry[] }>('get_page_intent_cache', { page_id: pageId }, key)
const classifications = async (pageId: number) =>
  (await streamEvents(ts, pageIntentStream(pageId))).filter((e) => e.type === 'PageIntentClassified')

/** Polls `read` until `done` holds (the processor works in the background); fails after 20 s with the last value. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: not reached; last ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
const allUpToDate = (rows: PageIntent[]) => rows.length > 0 && rows.every((r) => r.up_to_date)

const home = await addPage('https://acme-plumbing.example.com/', 'Acme Plumbing')
const austin = await addPage('https://acme-plumbing.example.com/drain-cleaning-austin', 'Drain Cleaning in Austin')
const guide = await addPage('https://acme-plumbing.example.com/blog/how-to-unclog-a-drain', 'How to unclog a drain')
const booking = await addPage('https://acme-plumbing.example.com/p/42', 'Untitled')
await snapshot(austin, '<h1>Drain cleaning in Austin</h1><p>Visit us at 1200 Congress Ave. Call (512) 555-0100.</p>')
await snapshot(guide, '<h1>How to unclog a drain</h1><h2>Why do drains clog?</h2><h2>What tools do I need?</h2><p>Tips.</p>')
await snapshot(booking, '<h1>Book online</h1><p>Schedule service and get a free quote. Book now.</p>', 'Book a plumber')

t.test('pages are classified by the rules as their content arrives', async (t) => {
  const rows = await until('every page classified', pagesWithIntent, allUpToDate)
  t.same(
    rows.map((r) => [r.page_id, r.intent, r.source, r.classifier]),
    [
      [home, 'navigational', 'rules', 'rules'],
      [austin, 'local', 'rules', 'rules'],
      [guide, 'informational', 'rules', 'rules'],
      [booking, 'transactional', 'rules', 'rules'],
    ],
  )
  t.match(rows[1], {
    url: 'https://acme-plumbing.example.com/drain-cleaning-austin',
    title: 'Drain Cleaning in Austin',
    active: true,
    override: null,
  })
  t.ok(rows.every((r) => typeof r.confidence === 'number' && r.confidence > 0 && r.confidence <= 0.95))
  t.equal(rows[0]!.snapshot_id, null, 'the home page has no snapshot: its URL and title were read')

  const cache = await cacheOf(austin)
  t.match(cache.entries[0], {
    content_sha256: cache.content_sha256,
    current: true,
    snapshot_id: cache.snapshot_id,
    intent: 'local',
    classifier: 'rules',
    model: null,
    fallback_reason: null,
    request_id: null,
  })
  t.ok(
    cache.entries[0]!.signals.some((s) => s.source === 'client' && /Austin, TX/.test(s.detail)),
    "the client's city is evidence",
  )
  // Added, then snapshotted: read by its URL and title first, unless the snapshot was there by the time it looked.
  t.ok(cache.entries.length <= 2, 'at most one classification per content')
  t.ok(
    cache.entries.slice(1).every((e) => !e.current && e.snapshot_id === null),
    'an earlier one is of the page before its content',
  )
})

t.test('the cache: new content is classified once; content seen before is not classified again', async (t) => {
  const before = await cacheOf(guide)
  await snapshot(guide, '<h1>Book a drain cleaning</h1><p>Book now: free quote, schedule online.</p>', 'Book drain cleaning')
  const after = await until(
    'the new content classified',
    () => cacheOf(guide),
    (c) => c.up_to_date,
  )
  t.equal(after.intent, 'transactional')
  t.match(after.entries[0], { intent: 'transactional', current: true }, 'newest first, the current one marked')
  t.match(
    after.entries.find((e) => e.content_sha256 === before.content_sha256),
    { intent: 'informational', current: false },
    'the earlier content keeps its classification',
  )
  t.equal(new Set(after.entries.map((e) => e.content_sha256)).size, after.entries.length, 'one entry per content')
  // Back to the earlier content (a rolled-back edit does this): its classification is reused at once.
  const classifiedBefore = (await classifications(guide)).length
  await snapshot(guide, '<h1>How to unclog a drain</h1><h2>Why do drains clog?</h2><h2>What tools do I need?</h2><p>Tips.</p>')
  const back = await cacheOf(guide)
  t.equal(back.content_sha256, before.content_sha256, 'the same content, the same hash')
  t.match(back, { up_to_date: true, intent: 'informational' }, 'classified already: shown without a new record')
  // Let the processor see the snapshot event, then check it recorded nothing for it.
  await snapshot(home, '<h1>Acme Plumbing</h1><p>Family plumbers.</p>', 'Acme Plumbing')
  await until(
    'the marker page classified',
    () => cacheOf(home),
    (c) => c.up_to_date,
  )
  t.equal((await classifications(guide)).length, classifiedBefore, 'no second classification of known content')
})

t.test("set_page_intent: a person's intent stands over new content until cleared", async (t) => {
  const set = await ts.call<PageIntent>('set_page_intent', { page_id: austin, intent: 'transactional', note: ' Booking page ' }, org.key)
  t.match(set, { page_id: austin, intent: 'transactional', source: 'override', classified_intent: 'local', classifier: 'rules' })
  t.match(set.override, { intent: 'transactional', note: 'Booking page' })
  t.type(set.override!.set_at, 'string')
  const events = (await streamEvents(ts, pageIntentStream(austin))).length
  const again = await ts.call<PageIntent>('set_page_intent', { page_id: austin, intent: 'transactional', note: 'Booking page' }, org.key)
  t.same(again, set, 'the same intent and note: unchanged')
  t.equal((await streamEvents(ts, pageIntentStream(austin))).length, events, 'and nothing recorded')

  await snapshot(austin, '<h1>Plumbing tips</h1><p>How to fix a leak. A guide.</p>', 'Plumbing tips and guide')
  const reclassified = await until(
    'the new content classified',
    () => cacheOf(austin),
    (c) => c.up_to_date,
  )
  t.match(reclassified, { intent: 'transactional', source: 'override', classified_intent: 'informational' }, 'the override stands')
  const cleared = await ts.call<PageIntent>('set_page_intent', { page_id: austin, intent: null, note: 'ignored' }, org.key)
  t.match(cleared, { intent: 'informational', source: 'rules', override: null }, 'cleared: the classification again')
  expectError(t, await ts.rpc('set_page_intent', { page_id: austin, intent: 'buying' }, org.key), 400, 'validation_failed')
})

t.test('classify_page_intents: catch up, or classify again with force, once per page', async (t) => {
  await until('every page classified', pagesWithIntent, allUpToDate)
  const counts = async () => Promise.all([home, austin, guide, booking].map(async (p) => (await classifications(p)).length))
  const before = await counts()
  const caught = await ts.call('classify_page_intents', { client_id: clientId }, org.key)
  t.match(caught, { client_id: clientId, force: false, page_ids: [home, austin, guide, booking], skipped_page_ids: [] })
  t.type(caught.request_id, 'string')

  const forced = await ts.call('classify_page_intents', { client_id: clientId, force: true, page_ids: [guide, home] }, org.key)
  t.match(forced, { force: true, page_ids: [home, guide] }, 'in id order')
  await until(
    'the forced pages classified again',
    async () => Promise.all([home, guide].map(async (p) => (await classifications(p)).at(-1)?.data.request_id)),
    (ids) => ids.every((id) => id === forced.request_id),
  )
  const after = await counts()
  t.same(
    after,
    [before[0]! + 1, before[1]!, before[2]! + 1, before[3]!],
    'the catch-up found nothing to do; force classified the two pages once each',
  )
  const entry = (await cacheOf(home)).entries[0]!
  t.match(entry, { current: true, request_id: forced.request_id }, 'the forced classification replaced the cached one for that content')

  // An inactive page named is skipped; another client's page answers like a missing one.
  await ts.call('deactivate_pages_not_in_list', { client_id: clientId, active_urls: ['https://acme-plumbing.example.com/'] }, org.key)
  const partial = await ts.call('classify_page_intents', { client_id: clientId, page_ids: [booking, home] }, org.key)
  t.match(partial, { page_ids: [home], skipped_page_ids: [booking] })
  t.same(
    (await pagesWithIntent()).map((r) => r.page_id),
    [home],
    'only active pages are listed',
  )
  const nothing = await ts.call('classify_page_intents', { client_id: clientId, page_ids: [booking] }, org.key)
  t.same(nothing, { request_id: null, client_id: clientId, force: false, page_ids: [], skipped_page_ids: [booking] }, 'nothing to classify')
  const foreignPage = await addPage('https://other-plumbing.example.com/', 'Other', other.key, otherClient)
  expectError(t, await ts.rpc('classify_page_intents', { client_id: clientId, page_ids: [foreignPage] }, org.key), 404, 'not_found')
})

t.test("another organization's ids answer like missing ones; a deleted client takes no writes", async (t) => {
  const missing = 987_654
  const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['get_active_pages_with_intent', { client_id: clientId }, { client_id: missing }],
    ['get_page_intent_cache', { page_id: home }, { page_id: missing }],
    ['set_page_intent', { page_id: home, intent: 'local' }, { page_id: missing, intent: 'local' }],
    ['classify_page_intents', { client_id: clientId }, { client_id: missing }],
  ]
  for (const [method, foreign, absent] of pairs) {
    const a = expectError(t, await ts.rpc(method, foreign, other.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, absent, other.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, [clientId, home]), withoutIds(b, [missing]), `${method}: the same answer`)
  }
  // The platform key names the organization and sees it.
  t.equal((await cacheOf(home, ts.platformKey)).page_id, home)

  await ts.call('set_client_status', { client_id: clientId, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('set_page_intent', { page_id: home, intent: 'local' }, org.key), 409, 'client_deleted')
  expectError(t, await ts.rpc('classify_page_intents', { client_id: clientId }, org.key), 409, 'client_deleted')
  t.equal((await cacheOf(home)).page_id, home, 'reads still answer')
})

t.test("the sandbox: its client's pages have intents, and the agency's override", async (t) => {
  const seeded = await resetSandbox({
    write: ts.system.write,
    read: ts.system.read,
    db: ts.system.database.db,
    watermark: ts.system.watermark,
    log: ts.system.log,
  })
  const rows = await ts.call<PageIntent[]>('get_active_pages_with_intent', { client_id: seeded.clientId }, SANDBOX_KEY)
  t.ok(rows.length >= 2, `${rows.length} pages`)
  t.ok(
    rows.every((r) => r.up_to_date && r.intent !== null),
    'every page classified',
  )
  t.match(
    rows.find((r) => r.url.endsWith('/services/drain-cleaning')),
    { intent: 'transactional', source: 'override', classifier: 'rules' },
  )
  // The home page's newest snapshot is the sandbox's latest crawl (ops/sandbox/seed-monitoring-snapshots.ts),
  // whose text sells to one city: the rules read it as local.
  t.match(
    rows.find((r) => new URL(r.url).pathname === '/'),
    { intent: 'local', source: 'rules' },
  )
})
