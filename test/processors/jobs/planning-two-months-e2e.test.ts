/**
 * Issue 26 end to end: one client through two months, every step through the public API with the processors
 * running. October: keywords with no page become insights (the real rules), the strategist plans them with an
 * AI Visibility item into the hour budget, execute_tier_a carries the automatable items out as site edits that
 * are staged and applied (the client's auto_apply_site_edits), a person starts the rest; every status change
 * reaches a registered webhook, signed. November: the strategist closes October and carries what is left over;
 * the cycle overview and the compare report show both months as they happened.
 */
import t from 'tap'
import { clientPayload, orgWithKey } from '../../http/helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from '../../http/jobs-helpers.js'
import { eventually, LOOPBACK_ALLOWED, startReceiver, TEST_SERVICE_KEY, verifySignature } from '../../http/webhooks-helpers.js'
import { startTestSystem } from '../../support/system.js'
import { trackItems } from './strategist-support.js'

const OCTOBER = '2026-10'
const NOVEMBER = '2026-11'

const ts = await startTestSystem(t, {
  runProcessors: true,
  jobs: QUICK_JOBS,
  webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, pollMs: 20 },
})
const org = await orgWithKey(ts, 'Acme Agency')
const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
const receiver = await startReceiver(t)
const hook = await ts.call<any>('register_webhook', { url: receiver.url(), events: ['action_item.status_changed'] }, org.key)

/** Runs a job through POST /api/v1/jobs to done and answers its record. */
async function runJob(kind: string, payload: Record<string, unknown>) {
  const posted = await postJob(ts.app, org.key, { kind, client_id: clientId, payload })
  t.equal(posted.statusCode, 202, `${kind}: accepted`)
  const job = await waitForJob(ts.app, org.key, posted.json().job_id, (j) => ['done', 'failed', 'cancelled'].includes(j.status), 60_000)
  t.equal(job.status, 'done', `${kind} ${JSON.stringify(payload)}: done${job.error ? ` (${job.error})` : ''}`)
  return job
}

const items = (month: string) => ts.call<any[]>('get_action_items', { client_id: clientId, month }, org.key)

t.test('October: data, the strategist, execute_tier_a, a person, signed webhooks', async (t) => {
  await ts.call('set_hour_budget', { client_id: clientId, hours: 12, from_month: OCTOBER }, org.key)
  for (const keyword of ['tankless water heater austin', 'sewer line repair austin']) {
    await ts.call('add_keyword', { keyword: { client_id: clientId, keyword } }, org.key)
  }
  await ts.call('refresh_seo_insights', { client_id: clientId }, org.key)
  // The insights processor also reacts to each new keyword: wait until both are raised, whoever raised them.
  const insights = await eventually(async () => {
    const open = await ts.call<any[]>('get_seo_insights', { client_id: clientId, insight_type: 'keyword_without_page' }, org.key)
    return open.length === 2 && open
  }, 'an insight per keyword without a page')
  t.equal(insights.length, 2, 'the rules raised one keyword_without_page insight per keyword')
  await trackItems(ts, org.orgId, clientId, [{ item_key: 'faq', tier: 'B', title: 'Add an FAQ the answers can cite' }])

  const planned = await runJob('strategist', { month: OCTOBER })
  t.match(planned.result, { client_id: clientId, month: OCTOBER, added: 3 }, 'two pages to create and the AI Visibility item')
  const october = await items(OCTOBER)
  const pagesToCreate = october.filter((i) => i.action_type === 'create_page')
  const aiItem = october.find((i) => i.action_type === 'ai_visibility')
  t.equal(pagesToCreate.length, 2)
  t.ok(pagesToCreate.every((i) => i.tier === 'A' && i.status === 'pending' && i.source.kind === 'insight'))
  t.match(aiItem, { tier: 'B', status: 'pending', source: { kind: 'aeo_item' } })

  const again = await runJob('strategist', { month: OCTOBER })
  t.match(again.result, { added: 0 }, 'planning the month again adds nothing')
  t.equal((await items(OCTOBER)).length, 3)

  await ts.call('set_client_setting', { client_id: clientId, key: 'auto_apply_site_edits', value: 'true' }, org.key)
  const executed = await runJob('execute_tier_a', { month: OCTOBER })
  t.match(executed.result, { client_id: clientId, month: OCTOBER, applied: 2 }, 'both staged and applied')
  const done = (await items(OCTOBER)).filter((i) => i.action_type === 'create_page')
  t.ok(
    done.every((i) => i.status === 'done' && i.completed_at !== null && i.site_edit_id !== null),
    'both items done, each with the edit that did it',
  )
  const edits = await ts.call<any[]>('get_site_edits', { client_id: clientId }, org.key)
  t.same(edits.map((e) => e.status).sort(), ['applied', 'applied'], 'one edit per item, staged and applied')
  t.same(new Set(edits.map((e) => e.edit_id)), new Set(done.map((i) => i.site_edit_id)))

  await ts.call('set_action_item_status', { item_id: aiItem.id, status: 'in_progress', note: 'FAQ drafted' }, org.key)

  // Two changes per carried-out item (pending → in_progress → done) and the person's one.
  const received = await eventually(async () => receiver.received.length >= 5 && receiver.received, 'the deliveries')
  const nowSeconds = Math.floor(Date.now() / 1000)
  t.ok(
    received.every((r) => verifySignature(hook.secret, r, nowSeconds)),
    'every delivery is signed with the webhook secret',
  )
  const changes = received.map((r) => `${r.body.data.item_id}:${r.body.data.from}>${r.body.data.status}`)
  for (const item of done) {
    t.ok(changes.includes(`${item.id}:pending>in_progress`), `item ${item.id} started`)
    t.ok(changes.includes(`${item.id}:in_progress>done`), `item ${item.id} done`)
  }
  t.ok(changes.includes(`${aiItem.id}:pending>in_progress`), "the person's change")
  t.ok(received.every((r) => r.body.event === 'action_item.status_changed' && r.body.client_id === clientId))
})

t.test('November: the strategist carries over what is left; the overview and the compare report show it', async (t) => {
  const planned = await runJob('strategist', { month: NOVEMBER })
  t.match(planned.result, { month: NOVEMBER, carried_over: 1 }, 'October closed with its one unfinished item carried')
  const october = await items(OCTOBER)
  const november = await items(NOVEMBER)
  const left = october.find((i) => i.action_type === 'ai_visibility')
  const carried = november.find((i) => i.carried_from_item_id === left.id)
  t.ok(carried, 'the unfinished item continues in November')
  t.equal(left.carried_to_item_id, carried.id, 'and October names its successor')
  t.match(carried, { action_type: 'ai_visibility', status: 'pending', source: { kind: 'carry_over', id: left.id } })
  t.equal(november.filter((i) => i.action_type === 'create_page').length, 0, 'done work is not planned again')

  const overview = await ts.call<any>('get_org_cycle_overview', { month: OCTOBER, current_month: NOVEMBER }, org.key)
  t.match(overview.clients, [
    { client_id: clientId, items_planned: 3, items_done: 2, items_in_progress: 1, items_carried_out: 1, closed: true, behind: true },
  ])
  t.match(overview, { is_current: false, is_past: true })
  const current = await ts.call<any>('get_org_cycle_overview', { month: NOVEMBER, current_month: NOVEMBER }, org.key)
  t.match(current.clients, [{ client_id: clientId, items_rolled_over_in: 1, closed: false, behind: false }])
  t.match(await ts.call<any[]>('get_resolved_cycle_pairs', {}, org.key), [{ client_id: clientId, month: OCTOBER, next_month: NOVEMBER }])

  const report = await ts.call<any>('create_compare_report', { client_id: clientId, month: NOVEMBER }, org.key)
  t.match(report, { client_id: clientId, month: NOVEMBER, against_month: OCTOBER })
  t.match(report.summary.against, { items_planned: 3, items_done: 2 }, "October's work as it was done")
  t.match(report.summary.month, { items_carried: 1 }, "November's carried item")
  const file = await ts.app.inject({ method: 'GET', url: report.url, headers: { authorization: `Bearer ${org.key}` } })
  t.equal(file.statusCode, 200, 'the report page is filed')
  t.match(file.body, /<html/i)
})
