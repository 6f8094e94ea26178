/**
 * The strategist against the real service: open insights and AI Visibility items become the month's action
 * items (types, keys, pages, impact, descriptions), a second run adds nothing, the earlier open month is
 * closed with its unfinished items carried over (counted first in the hours, their findings not planned
 * again), the hour budget cuts what does not fit (deferred in the result), last month's unused hours roll
 * over into what this month can hold, a closed month is refused, the
 * language model's descriptions are used and an invalid answer falls back to the templates; and the kind
 * through POST /api/v1/jobs to done, with its result and progress.
 */
import t from 'tap'
import { systemContext } from '../../../commands/command-handler.js'
import { setActionItemStatus } from '../../../commands/planning/action-items.js'
import { setHourBudget } from '../../../commands/planning/cycles.js'
import { strategistHandler } from '../../../processors/jobs/kinds/strategist.js'
import type { LanguageModel, LanguageModelRequest } from '../../../processors/language-model/port.js'
import { clientPayload, orgWithKey, streamEvents } from '../../http/helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from '../../http/jobs-helpers.js'
import { startTestSystem, type TestSystem } from '../../support/system.js'
import { jobContext } from './context.js'
import { finding, monthItems, recordInsights, trackItems } from './strategist-support.js'
import { readModelsAt } from '../../support/read-models.js'

const NOW = new Date('2026-11-15T12:00:00Z')
const clock = () => NOW

async function world(ts: TestSystem) {
  const org = await orgWithKey(ts, 'Acme Agency')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const page = (path: string) =>
    ts.call<number>('add_page', { page: { client_id: clientId, url: `https://acme.example.com${path}` } }, org.key)
  const drains = await page('/drains')
  const heaters = await page('/water-heaters')
  const old = await page('/old-offer')
  await recordInsights(
    ts,
    org.orgId,
    clientId,
    [
      finding('low_ctr:drains', {
        insight_type: 'low_ctr',
        source: 'gsc',
        page_id: drains,
        evidence: { query: 'drain cleaning', impressions: 900 },
      }),
      finding('page_problem:old', {
        insight_type: 'page_problem',
        source: 'crawl',
        severity: 'high',
        page_id: old,
        evidence: { problem: 'gone', url: 'https://acme.example.com/old-offer', status: 404 },
      }),
      finding('kwp:heater', {
        insight_type: 'keyword_without_page',
        source: 'crawl',
        evidence: { keyword: 'tankless water heater austin' },
      }),
      finding('rank_drop:heaters', {
        insight_type: 'rank_drop',
        page_id: heaters,
        evidence: { keyword: 'water heater repair', position: 14 },
      }),
    ],
    NOW.toISOString(),
  )
  await trackItems(ts, org.orgId, clientId, [
    { item_key: 'faq', tier: 'B', title: 'Add an FAQ the answers can cite' },
    { item_key: 'yelp', tier: 'C', title: 'Get listed on Yelp' },
  ])
  return { org, clientId, pages: { drains, heaters, old } }
}

let nextJob = 9000
const run = (ts: TestSystem, orgId: number, clientId: number, month?: string, languageModel: LanguageModel | null = null) => {
  const ctx = jobContext(ts, {
    kind: 'strategist',
    jobId: ++nextJob,
    orgId,
    clientId,
    payload: month === undefined ? {} : { month },
    languageModel,
  })
  return { ctx, result: strategistHandler(ctx) as Promise<any> }
}

t.test('open findings become the month’s items; a second run adds nothing', async (t) => {
  const ts = await startTestSystem(t, { clock })
  const { org, clientId } = await world(ts)
  const { ctx, result: pending } = run(ts, org.orgId, clientId)
  const result = await pending
  t.match(result, {
    client_id: clientId,
    month: '2026-11',
    closed_months: [],
    carried_over: 0,
    added: 6,
    existing: 0,
    deferred: [],
    budget_hours: null,
    available_hours: null,
    planned_hours: 0.5 + 0.5 + 3 + 1 + 1.5 + 1.5,
    writer: 'built-in-templates',
    writer_fallback: null,
  })
  t.same(
    result.added_items.map((i: any) => [i.action_type, i.tier, i.page_url]),
    [
      ['title_meta_rewrite', 'A', 'https://acme.example.com/drains'],
      ['redirect', 'A', 'https://acme.example.com/old-offer'],
      ['internal_links', 'A', 'https://acme.example.com/water-heaters'],
      ['ai_visibility', 'B', ''],
      ['ai_visibility', 'C', ''],
      ['create_page', 'A', ''],
    ],
    'ranked by impact per hour',
  )
  t.same(ctx.progressSeen.at(-1), [4, 4], 'progress to the end')
  t.ok(ctx.progressSeen.length >= 5, 'progress per step')

  const { items, closed } = await monthItems(ts, clientId, '2026-11')
  t.equal(closed, false)
  t.equal(items.length, 6)
  t.ok(
    items.every((i) => i.status === 'pending' && /^(insight|aeo_item):\d+$/.test(i.sourceKey ?? '')),
    'pending, keyed by their source',
  )
  const redirect = items.find((i) => i.actionType === 'redirect')!
  t.match(redirect.description, /^Redirect https:\/\/acme\.example\.com\/old-offer to the closest live page/)
  const rows = await ts.system.read.selectFrom('action_items').selectAll().where('client_id', '=', clientId).orderBy('id').execute()
  t.equal(rows.length, 6, 'the read model shows them')
  t.ok(
    rows.every((r) => r.job_id === ctx.job.jobId && r.impact !== null && r.impact > 0 && r.month === '2026-11'),
    'each with its job, impact and month',
  )
  t.equal(rows.find((r) => r.action_type === 'redirect')!.impact, 70, 'high 60 + tier A 10')

  const again = await run(ts, org.orgId, clientId, '2026-11').result
  t.match(again, { added: 0, existing: 6, added_items: [], planned_hours: result.planned_hours })
  t.equal((await monthItems(ts, clientId, '2026-11')).items.length, 6, 'no duplicates')
})

t.test('carry-over from the last open month, counted first; the budget cuts what does not fit', async (t) => {
  const ts = await startTestSystem(t, { clock })
  const { org, clientId } = await world(ts)
  const october = await run(ts, org.orgId, clientId, '2026-10').result
  t.equal(october.added, 6)
  // Two of October's items are finished; the other four are carried into November.
  const ctx = systemContext('test')
  for (const item of october.added_items.slice(0, 2))
    await setActionItemStatus(
      ts.system.write,
      ctx,
      { clientId, callerOrgId: org.orgId, month: '2026-10', itemId: item.item_id },
      { status: 'done' },
    )
  // A new finding since, and a budget for November.
  await recordInsights(
    ts,
    org.orgId,
    clientId,
    [
      finding('kwp:heater', {
        insight_type: 'keyword_without_page',
        source: 'crawl',
        evidence: { keyword: 'tankless water heater austin' },
      }),
      finding('low_ctr:new', { insight_type: 'low_ctr', source: 'gsc', evidence: { query: 'plumber near me', impressions: 50 } }),
      finding('cannibal', { insight_type: 'cannibalization', source: 'gsc', evidence: { query: 'plumber', impressions: 20 } }),
    ],
    new Date(NOW.getTime() + 1000).toISOString(),
  )
  const position = await setHourBudget(ts.system.write, ctx, { clientId, callerOrgId: org.orgId, fromMonth: '2026-11', hours: 8 })
  await readModelsAt(ts, position)

  const november = await run(ts, org.orgId, clientId).result
  t.same(november.closed_months, [{ month: '2026-10', carried: 4, closed_now: true }], 'October closed into November')
  const carriedHours = october.added_items.slice(2).reduce((s: number, i: any) => s + i.hours, 0)
  t.equal(carriedHours, 1 + 1.5 + 1.5 + 3)
  t.match(november, { month: '2026-11', carried_over: 4, budget_hours: 8, rolled_over_hours: 0, available_hours: 8, added: 1 })
  t.same(
    november.added_items.map((i: any) => i.action_type),
    ['title_meta_rewrite'],
    'the 0.5 h that fit after 7 carried hours',
  )
  t.same(
    november.deferred.map((d: any) => [d.action_type, d.reason]),
    [['resolve_cannibalization', 'over_budget']],
  )
  t.equal(november.existing, 3, 'the keyword finding and the two tracker items are carried on, not planned again')
  t.equal(november.planned_hours, 7.5)
  const { items } = await monthItems(ts, clientId, '2026-11')
  t.equal(items.length, 5)
  t.equal(items.filter((i) => i.sourceKey?.startsWith('carry:')).length, 4)
  t.equal((await monthItems(ts, clientId, '2026-10')).closed, true)

  const again = await run(ts, org.orgId, clientId).result
  t.match(again, { closed_months: [], carried_over: 4, added: 0 })
  t.equal((await monthItems(ts, clientId, '2026-11')).items.length, 5, 'running again carries and adds nothing')

  await t.rejects(
    run(ts, org.orgId, clientId, '2026-10').result,
    /the month 2026-10 of client \d+ is closed/,
    'a closed month takes no plan',
  )
  await t.rejects(run(ts, org.orgId + 1000, clientId).result, /not found/i, "another organization's client is not found")
})

t.test("last month's unused hours roll over into this month's available hours", async (t) => {
  const ts = await startTestSystem(t, { clock })
  const { org, clientId } = await world(ts)
  const ctx = systemContext('test')
  const position = await setHourBudget(ts.system.write, ctx, { clientId, callerOrgId: org.orgId, fromMonth: '2026-10', hours: 2 })
  await readModelsAt(ts, position)
  const october = await run(ts, org.orgId, clientId, '2026-10').result
  t.match(october, { budget_hours: 2, rolled_over_hours: 0, available_hours: 2, added: 3, planned_hours: 2 })
  t.equal(october.deferred.length, 3)
  // 0.5 h done; the other 1.5 h are carried, and October's unused 1.5 h roll into November.
  const meta = october.added_items.find((i: any) => i.action_type === 'title_meta_rewrite')
  await setActionItemStatus(
    ts.system.write,
    ctx,
    { clientId, callerOrgId: org.orgId, month: '2026-10', itemId: meta.item_id },
    { status: 'done' },
  )

  const november = await run(ts, org.orgId, clientId, '2026-11').result
  t.match(november, { budget_hours: 2, rolled_over_hours: 1.5, available_hours: 3.5, carried_over: 2 })
  t.same(
    november.added_items.map((i: any) => [i.action_type, i.tier]),
    [['ai_visibility', 'B']],
    'the 2 h left after 1.5 carried hours: the best tracker item',
  )
  t.equal(november.planned_hours, 3)
  t.same(
    november.deferred.map((d: any) => d.reason),
    ['over_budget', 'over_budget'],
  )
})

t.test('the language model writes the descriptions; an invalid answer falls back to the templates', async (t) => {
  const ts = await startTestSystem(t, { clock })
  const { org, clientId } = await world(ts)
  const requests: LanguageModelRequest[] = []
  const model = (answer: (keys: string[]) => string): LanguageModel => ({
    name: 'fake:planner-1',
    async complete(request) {
      requests.push(request)
      const keys = [...request.prompt.matchAll(/"key":"([^"]+)"/g)].map((m) => m[1]!)
      return answer(keys)
    },
  })
  const broken = await run(
    ts,
    org.orgId,
    clientId,
    '2026-09',
    model(() => 'Sure! Here are some ideas.'),
  ).result
  t.match(broken, { added: 6, writer: 'built-in-templates', writer_fallback: 'fake:planner-1: the answer is not JSON' })
  t.equal(requests.length, 1, 'one request for the month')
  t.match(requests[0]!.prompt, /Client: Acme Plumbing\nMonth: 2026-09/)

  const good = model((keys) => JSON.stringify({ items: keys.map((key) => ({ key, description: `Model plan for ${key}.` })) }))
  const written = await run(ts, org.orgId, clientId, '2026-12', good).result
  t.match(written, { writer: 'fake:planner-1', writer_fallback: null })
  // December: September's items are carried (closed into December), their findings held: nothing new to write.
  t.equal(written.added, 0)
  t.equal(requests.length, 1, 'no request when nothing is added')

  const other = await ts.call<number>('add_client', clientPayload('Other Plumbing'), org.key)
  await recordInsights(
    ts,
    org.orgId,
    other,
    [finding('low_ctr:x', { insight_type: 'low_ctr', source: 'gsc', evidence: { query: 'x' } })],
    NOW.toISOString(),
  )
  const fresh = await run(ts, org.orgId, other, '2026-11', good).result
  t.match(fresh, { added: 1, writer: 'fake:planner-1' })
  const { items } = await monthItems(ts, other, '2026-11')
  t.match(items[0]!.description, /^Model plan for insight:\d+\.$/)
  const failing: LanguageModel = {
    name: 'fake:down',
    async complete() {
      throw new Error('provider unavailable')
    },
  }
  await recordInsights(
    ts,
    org.orgId,
    other,
    [
      finding('low_ctr:x', { insight_type: 'low_ctr', source: 'gsc', evidence: { query: 'x' } }),
      finding('low_ctr:y', { insight_type: 'low_ctr', source: 'gsc', evidence: { query: 'y' } }),
    ],
    new Date(NOW.getTime() + 1000).toISOString(),
  )
  const down = await run(ts, org.orgId, other, '2026-11', failing).result
  t.match(down, { added: 1, writer: 'built-in-templates', writer_fallback: /fake:down failed: provider unavailable/ })
})

t.test('through POST /api/v1/jobs to done, with result and progress', async (t) => {
  const ts = await startTestSystem(t, { clock, runProcessors: true, jobs: QUICK_JOBS })
  const { org, clientId } = await world(ts)
  const bad = await postJob(ts.app, org.key, { kind: 'strategist', client_id: clientId, payload: { month: '2026-13' } })
  t.equal(bad.statusCode, 400, 'a month that is not one')
  const created = await postJob(ts.app, org.key, { kind: 'strategist', client_id: clientId, payload: { month: '2026-11' } })
  t.equal(created.statusCode, 202, created.body)
  const { job_id: jobId } = created.json()
  const done = await waitForJob(ts.app, org.key, jobId, (job) => ['done', 'failed'].includes(job.status), 60_000)
  t.equal(done.status, 'done', JSON.stringify(done.error ?? ''))
  // The running insights processor refreshes the client and resolves the seeded insights it cannot derive
  // from this bare client's data; the tracker items stay open.
  t.match(done.result, { client_id: clientId, month: '2026-11', existing: 0, writer: 'built-in-templates' })
  t.ok(done.result.added >= 2, `${done.result.added} items added`)
  const progress = (await streamEvents(ts, `job-${jobId}`)).filter((e) => e.type === 'JobProgressed').map((e) => e.data)
  t.ok(progress.length >= 2, `progress recorded (${progress.length} events)`)
  t.match(progress.at(-1), { done: 4, total: 4 })
  const rows = await ts.system.read.selectFrom('action_items').select(['job_id']).where('client_id', '=', clientId).execute()
  t.equal(rows.length, done.result.added)
  t.ok(
    rows.every((r) => r.job_id === jobId),
    'the items name the job',
  )
})
