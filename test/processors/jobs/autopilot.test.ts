/**
 * autopilot against the real service with its processors (the scan runner crawls the test site on 127.0.0.1):
 * a client that has not opted in fails naming the setting; an opted-in client with a stale site runs the whole
 * loop through POST /api/v1/jobs (a real crawl queued and waited for, the strategist's items, execute_tier_a,
 * the month's compare report) to done with its steps and progress; the same job resumed (attempt 2) repeats
 * nothing; a cooldown skips the crawl and the edits with a note. The pure rules (opt-in, staleness) beside.
 */
import t from 'tap'
import { loadClientMonth } from '../../../commands/planning/action-items.js'
import { parseAllowList } from '../../../domain/webhooks/url-policy.js'
import { createAutopilotHandler } from '../../../processors/jobs/kinds/autopilot.js'
import { optedIn, staleReason } from '../../../domain/planning/autopilot/rules.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../../processors/monitoring/settings.js'
import { orgWithKey, streamEvents } from '../../http/helpers.js'
import { postJob, QUICK_JOBS, waitForJob } from '../../http/jobs-helpers.js'
import { startTestSite } from '../../support/stand-ins/test-site.js'
import { startTestSystem } from '../../support/system.js'
import { jobContext } from './context.js'
import { trackItems } from './strategist-support.js'

t.test('the pure rules: opting in and a stale site', async (t) => {
  t.ok(optedIn({ autopilot_enabled: 'true' }))
  t.ok(optedIn({ autopilot_enabled: ' Yes ' }))
  t.notOk(optedIn({ autopilot_enabled: 'false' }))
  t.notOk(optedIn({}))
  const now = new Date('2026-11-15T12:00:00Z')
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000)
  t.equal(staleReason(null, 'weekly', now), 'no completed crawl yet')
  t.equal(staleReason(daysAgo(6), 'weekly', now), null, 'within the weekly cadence')
  t.match(staleReason(daysAgo(8), 'weekly', now), /more than 7 days ago \(cadence weekly\)/)
  t.match(staleReason(daysAgo(2), 'daily', now), /more than 1 day ago/)
  t.equal(staleReason(daysAgo(29), 'off', now), null, 'no cadence: a month')
  t.match(staleReason(daysAgo(31), 'off', now), /more than 30 days ago/)
})

const monitoring = {
  ...DEFAULT_MONITORING_SETTINGS,
  allowList: parseAllowList('127.0.0.1')!,
  delayMs: 0,
  hostConcurrency: 4,
  timeoutMs: 3_000,
  pollMs: 100,
  maxPages: 100,
  chromiumPath: '/nonexistent/chromium',
}
const MONTH = '2026-11'

t.test('the monthly loop', async (t) => {
  const site = await startTestSite()
  t.teardown(() => site.close())
  const ts = await startTestSystem(t, { monitoring, runProcessors: true, jobs: QUICK_JOBS })
  const org = await orgWithKey(ts, 'Acme Agency')
  const addClient = (name: string) => ts.call<number>('add_client', { client: { name, website_url: `${site.url}/` } }, org.key)
  const optIn = (clientId: number) =>
    ts.call('set_client_setting', { client_id: clientId, key: 'autopilot_enabled', value: 'true' }, org.key)
  let nextJob = 70_000
  const handler = createAutopilotHandler({ scanWaitMs: 60_000, scanPollMs: 100 })
  const run = (clientId: number, jobId = ++nextJob, attempt = 1) => {
    const ctx = jobContext(ts, { kind: 'autopilot', jobId, orgId: org.orgId, clientId, payload: { month: MONTH }, attempt })
    return { ctx, result: handler(ctx) as Promise<any> }
  }

  await t.test('a client that has not opted in: the job fails naming the setting, writing nothing', async (t) => {
    const clientId = await addClient('Not Opted In')
    await t.rejects(run(clientId).result, /has not opted in to autopilot: set the client setting autopilot_enabled to true/)
    t.strictSame(await streamEvents(ts, `compare_reports-${clientId}`), [])
    const failed = await postJob(ts.app, org.key, { kind: 'autopilot', client_id: clientId, payload: { month: MONTH } })
    t.equal(failed.statusCode, 202, failed.body)
    const job = await waitForJob(ts.app, org.key, failed.json().job_id, (j) => ['done', 'failed'].includes(j.status), 60_000)
    t.equal(job.status, 'failed')
    t.match(JSON.stringify(job.error), /autopilot_enabled/)
  })

  let clientId = 0
  let result: any
  await t.test('through POST /api/v1/jobs: crawl (stale), strategist, execute_tier_a, compare report', async (t) => {
    clientId = await addClient('Acme Garden')
    await optIn(clientId)
    await trackItems(ts, org.orgId, clientId, [
      { item_key: 'gbp', tier: 'C', title: 'Claim the Google Business profile' },
      { item_key: 'faq', tier: 'B', title: 'Answer "is it safe" on the services page' },
    ])
    const created = await postJob(ts.app, org.key, { kind: 'autopilot', client_id: clientId, payload: { month: MONTH } })
    t.equal(created.statusCode, 202, created.body)
    const job = await waitForJob(ts.app, org.key, created.json().job_id, (j) => ['done', 'failed'].includes(j.status), 120_000)
    t.equal(job.status, 'done', JSON.stringify(job.error ?? ''))
    result = job.result
    t.match(result, { client_id: clientId, month: MONTH, report_id: Number })
    t.strictSame(
      result.steps.map((s: any) => [s.step, s.status]),
      [
        ['scan', 'done'],
        ['strategist', 'done'],
        ['execute_tier_a', 'done'],
        ['compare_report', 'done'],
      ],
      JSON.stringify(result.steps),
    )
    t.match(result.steps[0].detail, /^no completed crawl yet: crawl \d+ queued and completed$/)
    t.match(result.steps[3].detail, `report ${result.report_id} filed`)

    const session = await ts.call('get_last_scan_session', { client_id: clientId, scan_type: 'crawl' }, org.key)
    t.equal(session.status, 'completed', 'the crawl the job queued ran')
    const month = await loadClientMonth(ts.system.write, clientId, MONTH)
    const keys = [...month.bySourceKey.keys()]
    t.ok(
      keys.some((k) => k.startsWith('aeo_item:')),
      `the strategist planned the tracker items (${keys.join(', ')})`,
    )
    const report = await ts.call('get_compare_report', { report_id: result.report_id }, org.key)
    t.match(report, { client_id: clientId, month: MONTH, against_month: '2026-10' })
    t.equal(report.summary.month.items_planned, month.items.size, "the report counts the month's items")
  })

  await t.test('the same job resumed after a crash repeats nothing done', async (t) => {
    const scansBefore = (await ts.call<any[]>('list_scan_sessions', { client_id: clientId }, org.key)).length
    const again = run(clientId, 70_999, 2)
    const resumed = await again.result
    t.strictSame(
      resumed.steps.map((s: any) => [s.step, s.status]).slice(0, 3),
      [
        ['scan', 'skipped'],
        ['strategist', 'done'],
        ['execute_tier_a', 'done'],
      ],
      JSON.stringify(resumed.steps),
    )
    t.match(resumed.steps[0].detail, /^the site is fresh/)
    // The crawl let the insights processor raise findings after the first run planned: a resume adds those (they
    // are new), never a finding the month holds, never a second crawl, edit or report.
    const month = await loadClientMonth(ts.system.write, clientId, MONTH)
    const keys = [...month.items.values()].map((i) => i.sourceKey).filter((k) => k !== null)
    t.equal(new Set(keys).size, keys.length, 'no source key twice in the month')
    t.equal((await ts.call<any[]>('list_scan_sessions', { client_id: clientId }, org.key)).length, scansBefore, 'no second crawl')
    t.equal(resumed.report_id, result.report_id, "the month's report keeps its id")
    const edits = await ts.call<any[]>('get_site_edits', { client_id: clientId }, org.key)
    const targets = edits
      .filter((e) => e.status !== 'rolled_back')
      .map((e) => `${JSON.parse(e.payload).action_item_id}:${e.page_id}:${e.operation}`)
    t.equal(new Set(targets).size, targets.length, 'no item has an edit staged twice for a page')
    t.same(again.ctx.progressSeen.at(-1), [4, 4], 'progress to the end')
  })

  await t.test('a cooldown skips the crawl and the edits with a note; the rest runs', async (t) => {
    const cooled = await addClient('Cooling Garden')
    await optIn(cooled)
    await ts.call('set_client_cooldown', { client_id: cooled, reason: 'operator', minutes: 60, note: 'site migration' }, org.key)
    const outcome = await run(cooled).result
    t.strictSame(
      outcome.steps.map((s: any) => [s.step, s.status]),
      [
        ['scan', 'skipped'],
        ['strategist', 'done'],
        ['execute_tier_a', 'skipped'],
        ['compare_report', 'done'],
      ],
    )
    t.match(
      outcome.steps[0].detail,
      /^no completed crawl yet, but the client is in cooldown \(reason operator\) until .*: planned with the last crawl$/,
    )
    t.match(outcome.steps[2].detail, /in cooldown \(reason operator\).*no edit staged or applied/)
    t.strictSame(await ts.call('list_scan_sessions', { client_id: cooled }, org.key), [], 'no crawl queued')

    // Resumed after a crash once everything was done: nothing is repeated, the report is left as filed.
    const reports = await streamEvents(ts, `compare_reports-${cooled}`)
    const resumed = await run(cooled, nextJob, 2).result
    t.strictSame(
      resumed.steps.map((s: any) => [s.step, s.status, s.step === 'strategist' ? s.detail.split(',')[0] : '']),
      [
        ['scan', 'skipped', ''],
        ['strategist', 'done', '0 items added'],
        ['execute_tier_a', 'skipped', ''],
        ['compare_report', 'skipped', ''],
      ],
    )
    t.equal(resumed.steps[3].detail, `report ${outcome.report_id} already filed; nothing changed since`)
    t.equal((await streamEvents(ts, `compare_reports-${cooled}`)).length, reports.length, 'no second filing')
  })
})
