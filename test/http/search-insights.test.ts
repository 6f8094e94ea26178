/**
 * SEO insights through the RPCs: refresh_seo_insights derives each kind from ranks (record_keyword_ranks),
 * Search Console rows (a capture), pages, links and AI Visibility answers; a second refresh raises nothing;
 * findings that stop holding resolve; the reads filter and page; update_seo_insight's statuses; meta
 * optimizations proposed (built-in writer, or a person's text), staged as a meta_rewrite site edit, applied
 * through the site publisher (the page's snapshot gets the new title and description, the insight is marked
 * applied), rejected; the counts; refused input; and another organization's records answering 404.
 */
import t from 'tap'
import { readMetaDescription, readTitleTag } from '../../domain/search/insights/head-tags.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'
import { recordGscCapture, recordRanks, seedSite, SITE } from './search-insights-support.js'
import { TEST_SERVICE_KEY } from './webhooks-helpers.js'

interface Insight {
  id: number
  client_id: number
  insight_type: string
  source: string
  severity: string
  summary: string
  keyword_id: number | null
  page_id: number | null
  evidence: Record<string, unknown>
  status: string
  applied: boolean
  note: string
  natural_key: string
  raised_at: string
  status_changed_at: string | null
  resolved_at: string | null
}

interface Optimization {
  id: number
  client_id: number
  page_id: number
  insight_id: number | null
  query: string
  location: string
  current_title: string
  current_description: string
  proposed_title: string
  proposed_description: string
  writer: string
  status: string
  edit_id: number | null
  proposed_by: string
  rejected_by: string | null
  reject_reason: string | null
  applied_at: string | null
}

/** 2026-11-27 at noon, running at real speed: Search Console captures end at most 2 days before it. */
const base = Date.parse('2026-11-27T12:00:00.000Z')
const started = Date.now()
const ts = await startTestSystem(t, { clock: () => new Date(base + (Date.now() - started)), webhooks: { serviceKey: TEST_SERVICE_KEY } })
const acme = await orgWithKey(ts, 'Acme Agency')
const other = await orgWithKey(ts, 'Other Agency')
const site = await seedSite(ts, acme.key)
const { clientId, keywords: k, pages: p } = site
const [austin] = await ts.call<{ id: number }[]>('get_locations_for_client', { client_id: clientId }, acme.key)
const aio = { ai_overview: true, ai_overview_cites_client: false }

await recordRanks(ts, acme.key, clientId, [
  // drain cleaning austin: #3 → #12, out of the top 10
  { keyword_id: k.drainAustin, date: '2026-11-20', position: 3, url: `${SITE}/drain-cleaning/`, location_id: austin!.id },
  { keyword_id: k.drainAustin, date: '2026-11-27', position: 12, url: `${SITE}/drain-cleaning/`, location_id: austin!.id },
  // drain cleaning: steady at #2 (the AI Visibility match)
  { keyword_id: k.drain, date: '2026-11-27', position: 2, url: `${SITE}/drain-cleaning/` },
  // emergency plumber: #4 under an AI Overview that cites others
  { keyword_id: k.emergency, date: '2026-11-27', position: 4, url: `${SITE}/emergency-plumbing/`, serp_features: aio },
  // water heater repair: two of the client's pages take turns
  { keyword_id: k.heater, date: '2026-11-20', position: 8, url: `${SITE}/water-heater-repair/` },
  { keyword_id: k.heater, date: '2026-11-27', position: 9, url: `${SITE}/water-heaters/` },
])
await recordGscCapture(ts, acme.key, acme.orgId, clientId, { start: '2026-11-20', end: '2026-11-24' }, [
  { date: '2026-11-21', query: 'drain cleaning austin', page: `${SITE}/drain-cleaning/`, clicks: 6, impressions: 600, position: 3 },
  { date: '2026-11-22', query: 'drain cleaning austin', page: `${SITE}/drain-cleaning/`, clicks: 4, impressions: 400, position: 3 },
  {
    date: '2026-11-22',
    query: 'water heater repair round rock',
    page: `${SITE}/water-heater-repair/`,
    clicks: 9,
    impressions: 300,
    position: 6,
  },
  { date: '2026-11-23', query: 'water heater repair round rock', page: `${SITE}/water-heaters/`, clicks: 5, impressions: 200, position: 8 },
  { date: '2026-11-24', query: 'rapid rooter plumbing', page: `${SITE}/`, clicks: 80, impressions: 200, position: 1 },
])
// AI Visibility: the client's drain cleaning questions, answered twice without naming it.
await ts.call('generate_aeo_questions', { client_id: clientId }, acme.key)
const questions = await ts.call<{ id: number; service: string; location: string }[]>('get_aeo_queries', { client_id: clientId }, acme.key)
const drainQuestion = questions.find((q) => q.service === 'Drain cleaning' && q.location === 'Austin, TX')!
for (const engine of ['claude', 'openai']) {
  await ts.call(
    'ingest_aeo_capture',
    {
      client_id: clientId,
      query_id: drainQuestion.id,
      engine,
      answer_text: 'For drain cleaning in Austin, try Bluebonnet Drains or Lone Star Pipes; both answer around the clock.',
      citations: ['https://www.bluebonnetdrains.example/austin/'],
      month: '2026-11',
    },
    acme.key,
  )
}

const insights = (params: Record<string, unknown> = {}, key = acme.key) =>
  ts.call<Insight[]>('get_seo_insights', { client_id: clientId, ...params }, key)
const keyOf = {
  drop: `rank_drop:${k.drainAustin}:${austin!.id}:desktop`,
  sewer: `keyword_without_page:${k.sewer}`,
  rankTurns: `cannibalization:ranks:${k.heater}`,
  gscShare: 'cannibalization:gsc:water heater repair round rock',
  lowCtr: `low_ctr:${SITE.toLowerCase()}/drain-cleaning|drain cleaning austin`,
  overview: `ai_overview_without_client:${k.emergency}`,
  answers: `ai_answers_without_client:${drainQuestion.id}`,
}
const find = (list: Insight[], key: string) => list.find((i) => i.natural_key === key)!

t.test('refresh_seo_insights raises each kind once, with its evidence; again it raises nothing', async (t) => {
  const first = await ts.call<Record<string, number>>('refresh_seo_insights', { client_id: clientId }, acme.key)
  t.same(first, { client_id: clientId, raised: 7, resolved: 0, open: 7, applied: 0, dismissed: 0 })
  const all = await insights()
  t.same(all.map((i) => i.natural_key).sort(), Object.values(keyOf).sort(), 'one insight per finding')
  t.match(find(all, keyOf.drop), {
    insight_type: 'rank_drop',
    source: 'ranks',
    severity: 'high',
    keyword_id: k.drainAustin,
    page_id: p.drain,
    status: 'open',
    applied: false,
    summary: '"drain cleaning austin" fell from #3 to #12 (Austin, TX, desktop)',
    evidence: { position: 12, date: '2026-11-27', previous_position: 3, previous_date: '2026-11-20', left_top_10: true },
  })
  t.match(find(all, keyOf.sewer), { source: 'crawl', severity: 'medium', keyword_id: k.sewer, evidence: { best_position: null } })
  t.match(find(all, keyOf.rankTurns), {
    source: 'ranks',
    keyword_id: k.heater,
    page_id: p.heaterRepair,
    evidence: {
      urls: [
        { url: `${SITE}/water-heater-repair/`, page_id: p.heaterRepair },
        { url: `${SITE}/water-heaters/`, page_id: p.heaters },
      ],
    },
  })
  t.match(find(all, keyOf.gscShare), {
    source: 'gsc',
    severity: 'high',
    keyword_id: k.heater,
    evidence: { impressions: 500, period_start: '2026-10-28', period_end: '2026-11-24', pages: [{ share: 0.6 }, { share: 0.4 }] },
  })
  t.match(find(all, keyOf.lowCtr), {
    source: 'gsc',
    severity: 'high',
    keyword_id: k.drainAustin,
    page_id: p.drain,
    evidence: {
      query: 'drain cleaning austin',
      impressions: 1000,
      clicks: 10,
      ctr: 0.01,
      position: 3,
      expected_ctr: 0.11,
      missed_clicks: 100,
    },
  })
  t.match(find(all, keyOf.overview), { source: 'ranks', severity: 'high', keyword_id: k.emergency, evidence: { best_position: 4 } })
  t.match(find(all, keyOf.answers), {
    source: 'aeo',
    keyword_id: k.drain,
    evidence: {
      query_id: drainQuestion.id,
      month: '2026-11',
      captures: 2,
      engines: ['claude', 'openai'],
      keywords: [{ keyword_id: k.drain, position: 2 }],
    },
  })
  t.same(
    all.map((i) => i.severity),
    [...all.map((i) => i.severity)].sort((a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b)),
    'most severe first',
  )
  const again = await ts.call<Record<string, number>>('refresh_seo_insights', { client_id: clientId }, acme.key)
  t.match(again, { raised: 0, resolved: 0, open: 7 }, 'the same data raises nothing again')
})

t.test('the reads filter by type, source, applied and status, and page', async (t) => {
  t.same((await insights({ insight_type: 'cannibalization' })).map((i) => i.source).sort(), ['gsc', 'ranks'])
  t.same((await insights({ source: 'gsc' })).map((i) => i.insight_type).sort(), ['cannibalization', 'low_ctr'])
  t.same(await insights({ applied: true }), [], 'nothing applied yet')
  t.equal((await insights({ applied: false })).length, 7)
  const firstTwo = await insights({ limit: 2 })
  const next = await insights({ limit: 2, offset: 2 })
  t.equal(firstTwo.length, 2)
  t.notOk(
    next.some((i) => firstTwo.some((f) => f.id === i.id)),
    'pages do not overlap',
  )
  t.equal((await ts.call<Insight[]>('get_unapplied_insights', { client_id: clientId }, acme.key)).length, 7)
  t.same(await insights({ status: 'resolved' }), [])
})

t.test('findings that stop holding resolve; a finding that comes back is a new insight', async (t) => {
  const before = await insights()
  await recordRanks(ts, acme.key, clientId, [
    { keyword_id: k.drainAustin, date: '2026-11-28', position: 3, url: `${SITE}/drain-cleaning/`, location_id: austin!.id },
  ])
  await ts.call('associate_keyword_page', { keyword_id: k.sewer, page_id: p.home }, acme.key)
  const refreshed = await ts.call<Record<string, number>>('refresh_seo_insights', { client_id: clientId }, acme.key)
  t.match(refreshed, { raised: 0, resolved: 2, open: 5 })
  const resolved = await insights({ status: 'resolved' })
  t.same(resolved.map((i) => i.natural_key).sort(), [keyOf.drop, keyOf.sewer].sort())
  t.ok(
    resolved.every((i) => i.resolved_at !== null),
    'resolved_at set',
  )
  t.equal((await insights()).length, 5, 'resolved insights leave the default list')

  await ts.call('dissociate_keyword_page', { keyword_id: k.sewer, page_id: p.home }, acme.key)
  await ts.call('refresh_seo_insights', { client_id: clientId }, acme.key)
  const back = find(await insights(), keyOf.sewer)
  t.not(back.id, find(before, keyOf.sewer).id, 'raised anew, under a new id')
})

t.test('update_seo_insight: applied, dismissed, open again; a resolved one is refused', async (t) => {
  const target = find(await insights(), keyOf.overview)
  const applied = await ts.call<Insight>(
    'update_seo_insight',
    { insight_id: target.id, status: 'applied', note: ' Added an FAQ ' },
    acme.key,
  )
  t.match(applied, { status: 'applied', applied: true, note: 'Added an FAQ', status_changed_at: String })
  t.same(
    (await insights({ applied: true })).map((i) => i.id),
    [target.id],
  )
  t.notOk((await ts.call<Insight[]>('get_unapplied_insights', { client_id: clientId }, acme.key)).some((i) => i.id === target.id))
  const same = await ts.call<Insight>('update_seo_insight', { insight_id: target.id, status: 'applied', note: 'again' }, acme.key)
  t.equal(same.note, 'Added an FAQ', 'the same status again changes nothing')
  const dismissed = await ts.call<Insight>('update_seo_insight', { insight_id: target.id, status: 'dismissed' }, acme.key)
  t.match(dismissed, { status: 'dismissed', applied: false })
  await ts.call('refresh_seo_insights', { client_id: clientId }, acme.key)
  t.equal(find(await insights(), keyOf.overview).status, 'dismissed', 'a dismissed insight is not raised again while it holds')
  t.equal((await ts.call<Insight>('update_seo_insight', { insight_id: target.id, status: 'open' }, acme.key)).status, 'open')
  const [resolved] = await insights({ status: 'resolved' })
  expectError(t, await ts.rpc('update_seo_insight', { insight_id: resolved!.id, status: 'applied' }, acme.key), 409, 'seo_insight_resolved')
  expectError(t, await ts.rpc('update_seo_insight', { insight_id: target.id, status: 'resolved' }, acme.key), 400, 'validation_failed')
})

t.test('meta optimizations: proposed from a low-CTR insight, staged as a site edit, applied through the publisher', async (t) => {
  const lowCtr = find(await insights(), keyOf.lowCtr)
  const proposed = await ts.call<Optimization>('propose_meta_optimization', { client_id: clientId, insight_id: lowCtr.id }, acme.key)
  t.match(proposed, {
    client_id: clientId,
    page_id: p.drain,
    insight_id: lowCtr.id,
    query: 'drain cleaning austin',
    location: 'Austin, TX',
    current_title: 'Drain Cleaning',
    current_description: 'We clean drains. Licensed plumbers.',
    proposed_title: 'Drain Cleaning Austin | Rapid Rooter Plumbing',
    writer: 'built-in',
    status: 'proposed',
    edit_id: null,
    proposed_by: `api_key:${acme.keyId}`,
  })
  t.ok(proposed.proposed_description.length <= 155 && proposed.proposed_description.includes('drain cleaning austin'))
  expectError(
    t,
    await ts.rpc('propose_meta_optimization', { client_id: clientId, page_id: p.drain, query: 'drain cleaning' }, acme.key),
    409,
    'meta_optimization_open',
  )
  const staged = await ts.call<Optimization>('stage_meta_optimization', { optimization_id: proposed.id }, acme.key)
  t.match(staged, { status: 'staged', edit_id: Number })
  t.same(
    await ts.call<Optimization>('stage_meta_optimization', { optimization_id: proposed.id }, acme.key),
    staged,
    'staging again changes nothing',
  )
  const edit = await ts.call<{ operation: string; page_id: number; status: string; payload: string }>(
    'get_site_edit',
    { edit_id: staged.edit_id },
    acme.key,
  )
  t.match(edit, { operation: 'meta_rewrite', page_id: p.drain, status: 'proposed' })
  t.match(JSON.parse(edit.payload), {
    optimization_id: proposed.id,
    title: proposed.proposed_title,
    description: proposed.proposed_description,
  })

  const applied = await ts.call<Optimization>(
    'apply_meta_optimization',
    { optimization_id: proposed.id, approved_by: 'dana@acme.example' },
    acme.key,
  )
  t.match(applied, { status: 'applied', edit_id: staged.edit_id, applied_at: String })
  t.match(await ts.call('get_site_edit', { edit_id: staged.edit_id }, acme.key), { status: 'applied', approved_by: 'dana@acme.example' })
  const snapshot = await ts.call<{ title: string; content: string }>('get_latest_snapshot', { page_id: p.drain }, acme.key)
  t.equal(snapshot.title, proposed.proposed_title, "the page's title is the new one")
  t.equal(readTitleTag(snapshot.content), proposed.proposed_title, 'its title tag too')
  t.equal(readMetaDescription(snapshot.content), proposed.proposed_description, 'and its meta description')
  t.ok(snapshot.content.includes('<p>Clogged drain? We clear it.</p>'), 'the body stays')
  t.match(find(await insights(), keyOf.lowCtr), {
    status: 'applied',
    note: `meta optimization ${proposed.id} applied (site edit ${staged.edit_id})`,
  })
  expectError(
    t,
    await ts.rpc('reject_meta_optimization', { optimization_id: proposed.id, rejected_by: 'sam' }, acme.key),
    409,
    'meta_optimization_not_open',
  )
})

t.test("meta optimizations: a person's text, rejected; the lists and counts", async (t) => {
  const manual = await ts.call<Optimization>(
    'propose_meta_optimization',
    {
      client_id: clientId,
      page_id: p.heaters,
      query: 'water heater repair round rock',
      title: '  Water Heater Repair in Round Rock  ',
      description: 'Same-week water heater repair in Round Rock and Austin.',
    },
    acme.key,
  )
  t.match(manual, { writer: 'manual', proposed_title: 'Water Heater Repair in Round Rock', insight_id: null, current_description: '' })
  const rejected = await ts.call<Optimization>(
    'reject_meta_optimization',
    { optimization_id: manual.id, rejected_by: 'dana@acme.example', reason: 'Keep the brand' },
    acme.key,
  )
  t.match(rejected, { status: 'rejected', rejected_by: 'dana@acme.example', reject_reason: 'Keep the brand' })
  t.same(
    await ts.call('reject_meta_optimization', { optimization_id: manual.id, rejected_by: 'sam' }, acme.key),
    rejected,
    'again: unchanged',
  )

  t.same(
    (await ts.call<Optimization[]>('get_meta_optimizations', { client_id: clientId }, acme.key)).map((o) => o.status),
    ['rejected', 'applied'],
  )
  t.same((await ts.call<Optimization[]>('get_meta_optimizations', { client_id: clientId, status: 'applied' }, acme.key)).length, 1)
  t.match(await ts.call('get_meta_optimization_stats', { client_id: clientId }, acme.key), {
    client_id: clientId,
    total: 2,
    by_status: { proposed: 0, staged: 0, applied: 1, rejected: 1, rolled_back: 0 },
    by_writer: { 'built-in': 1, manual: 1 },
    pages_optimized: 1,
    acceptance_rate: 0.5,
    applied_last_30_days: 1,
    last_proposed_at: String,
    last_applied_at: String,
  })
  t.equal(await ts.call('count_recent_meta_optimizations', { client_id: clientId, page_id: p.drain }, acme.key), 1)
  t.equal(await ts.call('count_recent_meta_optimizations', { client_id: clientId, page_id: p.home, days: 30 }, acme.key), 0)
})

t.test('refused input', async (t) => {
  const propose = (params: Record<string, unknown>) => ts.rpc('propose_meta_optimization', { client_id: clientId, ...params }, acme.key)
  expectError(
    t,
    await propose({ page_id: p.home, title: 'x'.repeat(61), description: 'Fine.' }),
    400,
    'validation_failed',
    'a title over 60',
  )
  expectError(
    t,
    await propose({ page_id: p.home, title: 'Fine', description: 'x'.repeat(156) }),
    400,
    'validation_failed',
    'a description over 155',
  )
  expectError(t, await propose({ page_id: p.home, title: 'Only a title' }), 400, 'validation_failed', 'a title without a description')
  expectError(t, await propose({ query: 'no page' }), 400, 'validation_failed', 'neither a page nor an insight')
  expectError(t, await ts.rpc('get_seo_insights', { client_id: clientId, insight_type: 'spam' }, acme.key), 400, 'validation_failed')
  expectError(
    t,
    await ts.rpc('count_recent_meta_optimizations', { client_id: clientId, page_id: p.home, days: 0 }, acme.key),
    400,
    'validation_failed',
  )
})

t.test("another organization's client, insights, optimizations and pages answer 404 like missing ones", async (t) => {
  const [insight] = await insights()
  const [optimization] = await ts.call<Optimization[]>('get_meta_optimizations', { client_id: clientId }, acme.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)
  const foreignPage = await ts.call<number>(
    'add_page',
    { page: { client_id: foreignClient, url: 'https://other.example/', title: 'Other' } },
    other.key,
  )
  const asOther = (method: string, params: Record<string, unknown>) => ts.rpc(method, params, other.key)
  for (const [method, params] of [
    ['get_seo_insights', { client_id: clientId }],
    ['get_unapplied_insights', { client_id: clientId }],
    ['refresh_seo_insights', { client_id: clientId }],
    ['update_seo_insight', { insight_id: insight!.id, status: 'dismissed' }],
    ['get_meta_optimizations', { client_id: clientId }],
    ['get_meta_optimization', { optimization_id: optimization!.id }],
    ['get_meta_optimization_stats', { client_id: clientId }],
    ['count_recent_meta_optimizations', { client_id: clientId, page_id: p.drain }],
    ['propose_meta_optimization', { client_id: clientId, page_id: p.drain }],
    ['stage_meta_optimization', { optimization_id: optimization!.id }],
    ['apply_meta_optimization', { optimization_id: optimization!.id }],
    ['reject_meta_optimization', { optimization_id: optimization!.id, rejected_by: 'x' }],
  ] as const) {
    const missing = await ts.rpc(method, { ...params, ...('client_id' in params ? { client_id: 999_999 } : {}) }, other.key)
    const foreign = expectError(t, await asOther(method, params), 404, 'not_found', method)
    if ('client_id' in params) t.equal(foreign.error, missing.json().error, `${method}: like a missing client`)
  }
  expectError(
    t,
    await ts.rpc('propose_meta_optimization', { client_id: clientId, page_id: foreignPage }, acme.key),
    404,
    'not_found',
    'a page of another client',
  )
  expectError(
    t,
    await ts.rpc('propose_meta_optimization', { client_id: foreignClient, insight_id: insight!.id }, other.key),
    404,
    'not_found',
    "an insight of another organization's client",
  )
  expectError(
    t,
    await ts.rpc('count_recent_meta_optimizations', { client_id: clientId, page_id: foreignPage }, acme.key),
    404,
    'not_found',
    'a foreign page',
  )
})
