/**
 * Keyword ↔ page associations through the RPCs: linking (first link primary, primary moved on request,
 * repeats appending nothing), dissociating (the oldest remaining link promoted), the reads by client, keyword
 * and page with text and URL beside the ids, the gap lists, deleted keywords and inactive pages, refused links,
 * the queries other areas call, and another organization's records answering like missing ones.
 */
import t from 'tap'
import { keywordPagesStream } from '../../domain/search/associations/keyword-pages.js'
import { pagesOfKeyword, pagesOfKeywords, primaryPageOfKeyword } from '../../projections/search/associations/queries.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

interface Link {
  client_id: number
  keyword_id: number
  keyword: string
  keyword_status: 'active' | 'deleted'
  page_id: number
  page_url: string
  page_title: string
  page_active: boolean
  primary: boolean
  associated_at: string
  updated_at: string
}

const ts = await startTestSystem(t)
const org = await ts.call<number>('create_organization', { name: 'Acme' }).then(async (orgId) => ({
  orgId,
  key: (await ts.call<{ key: string }>('create_api_key', { name: 'acme', org_id: orgId })).key,
}))
const other = await orgWithKey(ts, 'Other')
const plumbers = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
const roofers = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)

const keyword = (clientId: number, text: string, key = org.key) =>
  ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: text } }, key)
const page = (clientId: number, url: string, title: string, key = org.key) =>
  ts.call<number>('add_page', { page: { client_id: clientId, url, title } }, key)

const drain = await keyword(plumbers, 'drain cleaning austin')
const heater = await keyword(plumbers, 'water heater repair')
const unlinked = await keyword(plumbers, 'plumber near me')
const home = await page(plumbers, 'https://acme-plumbing.example.com/', 'Home')
const drainPage = await page(plumbers, 'https://acme-plumbing.example.com/drain-cleaning', 'Drain Cleaning')
const heaterPage = await page(plumbers, 'https://acme-plumbing.example.com/water-heaters', 'Water Heaters')
const contact = await page(plumbers, 'https://acme-plumbing.example.com/contact', 'Contact')
const roofKeyword = await keyword(roofers, 'roof repair')
const roofPage = await page(roofers, 'https://acme-roofing.example.com/', 'Roofing')
const foreignKeyword = await keyword(foreignClient, 'drain cleaning austin', other.key)
const foreignPage = await page(foreignClient, 'https://other-plumbing.example.com/', 'Home', other.key)

const associate = (keyword_id: number, page_id: number, extra: Record<string, unknown> = {}, key = org.key) =>
  ts.call<Link>('associate_keyword_page', { keyword_id, page_id, ...extra }, key)
const dissociate = (keyword_id: number, page_id: number, key = org.key) =>
  ts.call<{ keyword_id: number; page_id: number; dissociated: boolean; primary_page_id: number | null }>(
    'dissociate_keyword_page',
    { keyword_id, page_id },
    key,
  )
const ofKeyword = (keyword_id: number) => ts.call<Link[]>('get_associations_for_keyword', { keyword_id }, org.key)
const pairs = (links: Link[]) => links.map((l) => [l.keyword_id, l.page_id, l.primary])

t.test('the first link is primary, shown with keyword text and page URL; a repeat appends nothing', async (t) => {
  const link = await associate(drain, home)
  t.match(link, {
    client_id: plumbers,
    keyword_id: drain,
    keyword: 'drain cleaning austin',
    keyword_status: 'active',
    page_id: home,
    page_url: 'https://acme-plumbing.example.com/',
    page_title: 'Home',
    page_active: true,
    primary: true,
    associated_at: String,
  })
  const before = await eventCount(ts)
  t.same(await associate(drain, home), link, 'the same link again')
  t.same(await associate(drain, home, { primary: true }), link, 'already primary')
  t.equal(await eventCount(ts), before, 'repeats append nothing')

  const second = await associate(drain, drainPage)
  t.equal(second.primary, false, 'a second page is not primary unless asked')
  t.same(pairs(await ofKeyword(drain)), [
    [drain, home, true],
    [drain, drainPage, false],
  ])
  t.match(await associate(drain, drainPage, { primary: true }), { primary: true }, 'primary: true moves the primary')
  t.same(pairs(await ofKeyword(drain)), [
    [drain, drainPage, true],
    [drain, home, false],
  ])
  t.same(
    (await streamEvents(ts, keywordPagesStream(plumbers))).map((e) => e.type),
    ['KeywordPageAssociated', 'KeywordPageAssociated', 'KeywordPrimaryPageSet'],
  )
  // One page serves many keywords.
  t.match(await associate(heater, home), { primary: true })
  t.same(
    (await ts.call<Link[]>('get_associations_for_page', { page_id: home }, org.key)).map((l) => [l.keyword, l.primary]),
    [
      ['drain cleaning austin', false],
      ['water heater repair', true],
    ],
  )
})

t.test('dissociating the primary promotes the oldest remaining link; again changes nothing', async (t) => {
  await associate(heater, heaterPage, { primary: true })
  await associate(heater, contact)
  t.same(pairs(await ofKeyword(heater)), [
    [heater, heaterPage, true],
    [heater, home, false],
    [heater, contact, false],
  ])
  t.same(await dissociate(heater, heaterPage), { keyword_id: heater, page_id: heaterPage, dissociated: true, primary_page_id: home })
  t.same(pairs(await ofKeyword(heater)), [
    [heater, home, true],
    [heater, contact, false],
  ])
  const before = await eventCount(ts)
  t.same(await dissociate(heater, heaterPage), { keyword_id: heater, page_id: heaterPage, dissociated: false, primary_page_id: home })
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.same(await dissociate(heater, contact), { keyword_id: heater, page_id: contact, dissociated: true, primary_page_id: home })
  t.same(await dissociate(heater, home), { keyword_id: heater, page_id: home, dissociated: true, primary_page_id: null })
  t.same(await ofKeyword(heater), [], 'no page left')
  t.match(await associate(heater, heaterPage), { primary: true }, 'linked again: primary as its only page')
})

t.test('client-wide reads and the gap lists', async (t) => {
  const all = await ts.call<Link[]>('get_all_associations_for_client', { client_id: plumbers }, org.key)
  t.same(pairs(all), [
    [drain, drainPage, true],
    [drain, home, false],
    [heater, heaterPage, true],
  ])
  t.same(
    pairs(await ts.call<Link[]>('get_all_associations_for_client', { client_id: plumbers, limit: 1, offset: 1 }, org.key)),
    [[drain, home, false]],
    'pages',
  )
  t.same(
    (await ts.call<{ id: number }[]>('get_keywords_without_pages', { client_id: plumbers }, org.key)).map((k) => k.id),
    [unlinked],
  )
  t.same(
    (await ts.call<{ page_id: number }[]>('get_pages_without_keywords', { client_id: plumbers }, org.key)).map((p) => p.page_id),
    [contact],
  )
  t.match(await ts.call('get_keywords_without_pages', { client_id: plumbers }, org.key), [
    { id: unlinked, client_id: plumbers, keyword: 'plumber near me', status: 'active', deleted_at: null },
  ])
  t.match(await ts.call('get_pages_without_keywords', { client_id: plumbers }, org.key), [
    { page_id: contact, client_id: plumbers, url: 'https://acme-plumbing.example.com/contact', title: 'Contact', active: true },
  ])
  t.same(await ts.call('get_all_associations_for_client', { client_id: roofers }, org.key), [], 'none yet')
})

t.test('a deleted keyword and an inactive page: refused for new links, marked on existing ones', async (t) => {
  const leak = await keyword(plumbers, 'leak detection')
  const leakPage = await page(plumbers, 'https://acme-plumbing.example.com/leaks', 'Leaks')
  await associate(leak, leakPage)
  await ts.call('delete_keyword', { keyword_id: leak }, org.key)
  t.match(await ts.call('get_associations_for_page', { page_id: leakPage }, org.key), [{ keyword_id: leak, keyword_status: 'deleted' }])
  t.same(
    (await ts.call<{ page_id: number }[]>('get_pages_without_keywords', { client_id: plumbers }, org.key)).map((p) => p.page_id),
    [contact, leakPage],
    'a page serving only a deleted keyword serves none',
  )
  const before = await eventCount(ts)
  expectError(t, await ts.rpc('associate_keyword_page', { keyword_id: leak, page_id: contact }, org.key), 409, 'keyword_deleted')
  t.same(await associate(leak, leakPage), (await ofKeyword(leak))[0], 'a repeat of an existing link still succeeds')

  await ts.call(
    'deactivate_pages_not_in_list',
    {
      client_id: plumbers,
      active_urls: [
        'https://acme-plumbing.example.com/',
        'https://acme-plumbing.example.com/water-heaters',
        'https://acme-plumbing.example.com/contact',
      ],
    },
    org.key,
  )
  expectError(t, await ts.rpc('associate_keyword_page', { keyword_id: unlinked, page_id: drainPage }, org.key), 409, 'page_inactive')
  t.equal(await eventCount(ts), before + 1, 'only the deactivation was appended')
  t.match(await ofKeyword(drain), [
    { page_id: drainPage, primary: true, page_active: false },
    { page_id: home, primary: false, page_active: true },
  ])
  t.same(
    (await ts.call<{ id: number }[]>('get_keywords_without_pages', { client_id: plumbers }, org.key)).map((k) => k.id),
    [unlinked],
    'drain still has an active page (home)',
  )
  await dissociate(drain, home)
  t.same(
    (await ts.call<{ id: number }[]>('get_keywords_without_pages', { client_id: plumbers }, org.key)).map((k) => k.id),
    [drain, unlinked],
    'linked only to an inactive page: it needs a page',
  )
  // Dissociating works whatever the keyword's or page's state, to clean up.
  t.match(await dissociate(leak, leakPage), { dissociated: true, primary_page_id: null })
  await ts.call(
    'add_page',
    { page: { client_id: plumbers, url: 'https://acme-plumbing.example.com/drain-cleaning', active: true } },
    org.key,
  )
  await associate(drain, home)
})

t.test('the queries rank checks match ranking URLs with', async (t) => {
  const read = ts.system.read
  t.same(await primaryPageOfKeyword(read, drain), {
    page_id: drainPage,
    url: 'https://acme-plumbing.example.com/drain-cleaning',
    title: 'Drain Cleaning',
    active: true,
    primary: true,
  })
  t.same(
    (await pagesOfKeyword(read, drain)).map((p) => [p.page_id, p.primary]),
    [
      [drainPage, true],
      [home, false],
    ],
  )
  t.equal(await primaryPageOfKeyword(read, unlinked), null)
  t.same(await pagesOfKeyword(read, unlinked), [])
  const many = await pagesOfKeywords(read, [drain, heater, unlinked, drain])
  t.same([...many.keys()], [drain, heater], 'only linked keywords, each once')
  t.same(
    many.get(heater)!.map((p) => p.url),
    ['https://acme-plumbing.example.com/water-heaters'],
  )
  t.same(await pagesOfKeywords(read, []), new Map())
})

t.test('refused links change nothing', async (t) => {
  const readOnly = await ts.call<{ key: string }>('create_api_key', { name: 'ro', org_id: org.orgId, scopes: 'read' })
  const before = await eventCount(ts)
  const mismatch = expectError(
    t,
    await ts.rpc('associate_keyword_page', { keyword_id: drain, page_id: roofPage }, org.key),
    400,
    'association_client_mismatch',
  )
  t.equal(mismatch.detail, `keyword ${drain} is client ${plumbers}'s, page ${roofPage} is client ${roofers}'s`)
  expectError(
    t,
    await ts.rpc('associate_keyword_page', { keyword_id: roofKeyword, page_id: home }, org.key),
    400,
    'association_client_mismatch',
  )
  expectError(t, await ts.rpc('associate_keyword_page', { keyword_id: drain, page_id: home, extra: 1 }, org.key), 400, 'validation_failed')
  expectError(
    t,
    await ts.rpc('associate_keyword_page', { keyword_id: drain, page_id: home, primary: 'yes' }, org.key),
    400,
    'validation_failed',
  )
  expectError(t, await ts.rpc('associate_keyword_page', { keyword_id: drain }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('associate_keyword_page', { keyword_id: drain, page_id: home }, readOnly.key), 403, 'insufficient_scope')
  expectError(t, await ts.rpc('dissociate_keyword_page', { keyword_id: drain, page_id: home }, readOnly.key), 403, 'insufficient_scope')
  t.equal(await eventCount(ts), before, 'nothing appended')

  await associate(roofKeyword, roofPage)
  await ts.call('set_client_status', { client_id: roofers, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('dissociate_keyword_page', { keyword_id: roofKeyword, page_id: roofPage }, org.key), 409, 'client_deleted')
  t.match(
    await ts.call('get_all_associations_for_client', { client_id: roofers }, org.key),
    [{ keyword_id: roofKeyword, page_id: roofPage, primary: true }],
    "a deleted client's links stay readable",
  )
})

t.test("another organization's keyword, page or client answers exactly like a missing one", async (t) => {
  await associate(foreignKeyword, foreignPage, {}, other.key)
  const before = await eventCount(ts)
  const missing = 987_654
  const same = async (method: string, foreign: Record<string, unknown>, absent: Record<string, unknown>, ids: [number, number]) => {
    const a = expectError(t, await ts.rpc(method, foreign, org.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, absent, org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, [ids[0]]), withoutIds(b, [ids[1]]), `${method}: same body`)
  }
  for (const method of ['associate_keyword_page', 'dissociate_keyword_page']) {
    await same(method, { keyword_id: foreignKeyword, page_id: home }, { keyword_id: missing, page_id: home }, [foreignKeyword, missing])
    await same(method, { keyword_id: drain, page_id: foreignPage }, { keyword_id: drain, page_id: missing }, [foreignPage, missing])
  }
  await same('get_associations_for_keyword', { keyword_id: foreignKeyword }, { keyword_id: missing }, [foreignKeyword, missing])
  await same('get_associations_for_page', { page_id: foreignPage }, { page_id: missing }, [foreignPage, missing])
  for (const method of ['get_all_associations_for_client', 'get_keywords_without_pages', 'get_pages_without_keywords']) {
    await same(method, { client_id: foreignClient }, { client_id: missing }, [foreignClient, missing])
  }
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.match(await ts.call('get_associations_for_keyword', { keyword_id: foreignKeyword }, other.key), [
    { page_id: foreignPage, primary: true },
  ])
  t.equal(
    (await ts.call<Link[]>('get_associations_for_keyword', { keyword_id: foreignKeyword })).length,
    1,
    'a platform key without org_id reads any organization',
  )
})
