/**
 * The insights processors end to end, with every other processor running: a Search Console capture taken by
 * the capture worker from a stand-in of the Search Console API completes, the refresher raises its low-CTR
 * insight, and the meta proposer proposes a rewrite written by the language model (Anthropic's Messages API,
 * answered by a local stand-in), or by the built-in writer when the model's answer does not fit; ranks
 * recorded through record_keyword_ranks raise a rank drop; a meta_rewrite site edit applied and rolled back
 * through apply_site_edit / rollback_site_edit is recorded on its optimization and its insight; a page with
 * an open proposal gets no second one.
 */
import t from 'tap'
import { handleMetaEvent } from '../../processors/search/insights/meta-proposer.js'
import { createAnthropicLanguageModel } from '../../processors/language-model/anthropic.js'
import pino from 'pino'
import { decode } from '../../commands/event-store/decode.js'
import { startSearchConsoleStandIn } from '../support/stand-ins/search-console.js'
import { startTestSystem } from '../support/system.js'
import { searchSettings } from '../http/search-gsc-support.js'
import { eventually, recordRanks, seedSite, SITE } from '../http/search-insights-support.js'
import { orgWithKey } from '../http/helpers.js'
import { TEST_SERVICE_KEY } from '../http/webhooks-helpers.js'
import { fixture, startProviderServer, type RecordedRequest } from './aeo/provider-server.js'

interface Insight {
  id: number
  insight_type: string
  page_id: number | null
  status: string
  note: string
}
interface Optimization {
  id: number
  page_id: number
  insight_id: number | null
  writer: string
  status: string
  edit_id: number | null
  proposed_title: string
  proposed_description: string
  proposed_by: string
}

const PROPERTY = 'sc-domain:rapidrooterplumbing.example'
const metaCalls = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/messages' && /title tag/.test(String(r.body?.system))
const anthropicAnswer = (text: string) => ({ ...fixture('claude-no-search.json'), content: [{ type: 'text', text }] })

const model = await startProviderServer(t)
let modelAnswer = JSON.stringify({
  title: 'Austin Drain Cleaning, Same Day | Rapid Rooter',
  description: 'Clogged drain in Austin? Rapid Rooter Plumbing clears kitchen, bath and main lines. Book a visit online.',
})
model.route((r) =>
  r.method === 'POST' && r.url === '/v1/messages'
    ? { body: anthropicAnswer(metaCalls(r) ? modelAnswer : '{"intent": "commercial", "confidence": 0.7, "reasons": ["a service page"]}') }
    : undefined,
)
const console = await startSearchConsoleStandIn(t)
const base = Date.parse('2026-11-27T12:00:00.000Z')
const started = Date.now()
const ts = await startTestSystem(t, {
  clock: () => new Date(base + (Date.now() - started)),
  runProcessors: true,
  search: searchSettings(console),
  webhooks: { serviceKey: TEST_SERVICE_KEY },
  languageModel: createAnthropicLanguageModel({ apiKey: 'sk-ant-test', baseUrl: model.origin, model: 'claude-test' }),
})
const acme = await orgWithKey(ts, 'Acme Agency')
const { clientId, keywords: k, pages: p } = await seedSite(ts, acme.key)
const account = console.createServiceAccount('rankrelay-gsc')
console.addUser(PROPERTY, account.client_email)
await ts.call('set_gsc_property', { client_id: clientId, property: PROPERTY, credentials: account, cadence: 'off' }, acme.key)

const insights = () => ts.call<Insight[]>('get_seo_insights', { client_id: clientId }, acme.key)
const optimizations = () => ts.call<Optimization[]>('get_meta_optimizations', { client_id: clientId }, acme.key)

async function capture(
  range: { start: string; end: string },
  rows: { query: string; path: string; clicks: number; impressions: number; position: number }[],
) {
  console.seedRows(
    PROPERTY,
    rows.map((r) => ({
      date: range.end,
      query: r.query,
      page: `${SITE}${r.path}`,
      clicks: r.clicks,
      impressions: r.impressions,
      position: r.position,
    })),
  )
  const queued = await ts.call<{ capture: { id: number } }>(
    'run_gsc_capture',
    { client_id: clientId, start_date: range.start, end_date: range.end },
    acme.key,
  )
  return eventually(
    `capture ${queued.capture.id} completed`,
    () => ts.call<{ status: string }>('get_gsc_capture', { capture_id: queued.capture.id }, acme.key),
    (c) => c.status === 'completed' || c.status === 'failed',
  )
}

t.test('a completed capture raises a low-CTR insight, and the model writes its meta optimization', async (t) => {
  const done = await capture({ start: '2026-11-18', end: '2026-11-20' }, [
    { query: 'drain cleaning austin', path: '/drain-cleaning/', clicks: 8, impressions: 900, position: 2.6 },
  ])
  t.equal(done.status, 'completed')
  const [proposal] = await eventually('a proposal for the low-CTR insight', optimizations, (list) => list.length > 0)
  const lowCtr = (await insights()).find((i) => i.insight_type === 'low_ctr')!
  t.match(proposal, {
    page_id: p.drain,
    insight_id: lowCtr.id,
    writer: 'anthropic:claude-test',
    status: 'proposed',
    proposed_title: 'Austin Drain Cleaning, Same Day | Rapid Rooter',
    proposed_by: 'system:seo-meta-proposer',
  })
  const asked = model.requests.filter(metaCalls)
  t.equal(asked.length, 1, 'one model call')
  t.match(asked[0]!.body.system, /at most 60 characters and the description at most 155/)
  t.match(JSON.parse(asked[0]!.body.messages[0].content), {
    query: 'drain cleaning austin',
    location: 'Austin, TX',
    business: 'Rapid Rooter Plumbing',
    current_title: 'Drain Cleaning',
    current_description: 'We clean drains. Licensed plumbers.',
    page_excerpt: /Clogged drain\? We clear it\./,
  })
})

t.test('ranks recorded by a caller raise a rank drop without anyone asking', async (t) => {
  await recordRanks(ts, acme.key, clientId, [
    { keyword_id: k.emergency, date: '2026-11-19', position: 2, url: `${SITE}/emergency-plumbing/` },
    { keyword_id: k.emergency, date: '2026-11-26', position: 9, url: `${SITE}/emergency-plumbing/` },
  ])
  const drop = await eventually('the rank drop raised', insights, (list) => list.some((i) => i.insight_type === 'rank_drop'))
  t.match(
    drop.find((i) => i.insight_type === 'rank_drop'),
    { page_id: p.emergency, status: 'open' },
  )
})

t.test('apply_site_edit and rollback_site_edit of its edit are recorded on the optimization and its insight', async (t) => {
  const [proposal] = await optimizations()
  const staged = await ts.call<Optimization>('stage_meta_optimization', { optimization_id: proposal!.id }, acme.key)
  await ts.call('apply_site_edit', { edit_id: staged.edit_id, approved_by: 'dana@acme.example' }, acme.key)
  const [applied] = await eventually('the optimization applied', optimizations, (list) => list[0]?.status === 'applied')
  t.equal(applied!.edit_id, staged.edit_id)
  const lowCtr = await eventually('its insight applied', insights, (list) =>
    list.some((i) => i.insight_type === 'low_ctr' && i.status === 'applied'),
  )
  t.match(
    lowCtr.find((i) => i.insight_type === 'low_ctr'),
    { note: `meta optimization ${proposal!.id} applied (site edit ${staged.edit_id})` },
  )

  await ts.call('rollback_site_edit', { edit_id: staged.edit_id }, acme.key)
  await eventually('the optimization rolled back', optimizations, (list) => list[0]?.status === 'rolled_back')
  const reopened = await eventually('its insight open again', insights, (list) =>
    list.some((i) => i.insight_type === 'low_ctr' && i.status === 'open'),
  )
  t.match(
    reopened.find((i) => i.insight_type === 'low_ctr'),
    { note: `site edit ${staged.edit_id} rolled back` },
  )
})

t.test("an answer that does not fit: the built-in writer's proposal; an open page gets no second one", async (t) => {
  modelAnswer = JSON.stringify({
    title: 'A title far longer than any search engine would ever show in its results page',
    description: 'Short.',
  })
  await capture({ start: '2026-11-21', end: '2026-11-23' }, [
    { query: 'emergency plumber austin', path: '/emergency-plumbing/', clicks: 2, impressions: 700, position: 3.1 },
    { query: 'water heater repair round rock', path: '/water-heater-repair/', clicks: 1, impressions: 500, position: 4 },
  ])
  const list = await eventually('two more proposals', optimizations, (l) => l.length === 3)
  const emergency = list.find((o) => o.page_id === p.emergency)!
  t.match(emergency, { writer: 'built-in', status: 'proposed', proposed_title: 'Emergency Plumber Austin | Rapid Rooter Plumbing' })

  // The same insight delivered again (a redelivery after a crash): the page's open proposal answers, nothing more.
  const events = []
  for await (const e of ts.system.store.readStream(`seo_insights-${clientId}`)) events.push(decode(e))
  const emergencyRaise = events.find(
    (e) => e.type === 'SeoInsightRaised' && e.data.insight_type === 'low_ctr' && e.data.page_id === p.emergency,
  )!
  const outcome = await handleMetaEvent(
    { write: ts.system.write, read: ts.system.read, watermark: ts.system.watermark, languageModel: null, log: pino({ level: 'silent' }) },
    emergencyRaise,
  )
  t.same(outcome, { kind: 'skipped', reason: 'the page has an open meta optimization' })
  t.equal((await optimizations()).length, 3, 'no second proposal')
})
