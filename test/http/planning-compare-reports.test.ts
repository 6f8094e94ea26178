/**
 * Compare reports through HTTP: a client with two months of ranks, Search Console rows, AI Visibility
 * captures, site changes and action items (February closed, its unfinished item carried into March);
 * create_compare_report files March against February with the numbers each area holds, the same month filed
 * again keeps its id, get_compare_report and get_compare_reports_for_org read it back, the file downloads
 * through /api/v1/files/ to its organization only, the org export lists it, and another organization's
 * client, report and file answer like missing ones.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { addActionItems, closeActionItemMonth, setActionItemStatus, type ActionItemInput } from '../../commands/planning/action-items.js'
import { orgReportPaths, withReadSnapshot } from '../../projections/exports/org-tables.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { captureBatch, insertCaptures, insertQuestion } from '../support/aeo-report-fixtures.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents } from './helpers.js'
import { readModelsAt } from '../support/read-models.js'

const NOW = new Date('2026-04-02T08:00:00.000Z')
const HOSTILE = `<script>alert("x")</script> & Sons`

const item = (description: string, key: string): ActionItemInput => ({
  action_type: 'title_meta_rewrite',
  page_url: 'https://plumbers.example.com/drains',
  description,
  tier: 'A',
  hours: 1,
  impact: 50,
  source: { kind: 'insight', id: 3, by: '' },
  source_key: key,
  carried_from_item_id: null,
  job_id: null,
})

let nextRow = 900_000

/** A completed Search Console capture of `days` with one row per day (clicks and impressions each). */
async function insertGscDays(
  ts: TestSystem,
  clientId: number,
  orgId: number,
  days: readonly string[],
  clicks: number,
  impressions: number,
) {
  const id = nextRow++
  const at = new Date('2026-04-01T00:00:00Z')
  await ts.system.read
    .insertInto('gsc_captures')
    .values({
      id,
      client_id: clientId,
      org_id: orgId,
      property: 'sc-domain:plumbers.example.com',
      start_date: days[0]!,
      end_date: days.at(-1)!,
      trigger: 'manual',
      status: 'completed',
      attempts: 1,
      row_count: days.length,
      days_recorded: days.length,
      error_code: null,
      error_message: null,
      queued_at: at,
      started_at: at,
      next_attempt_at: null,
      finished_at: at,
      updated_at: at,
    })
    .execute()
  await ts.system.read
    .insertInto('gsc_capture_rows')
    .values(
      days.map((date, i) => ({
        capture_id: id,
        row_no: i,
        client_id: clientId,
        org_id: orgId,
        date,
        query: 'drain cleaning',
        page: 'https://plumbers.example.com/drains',
        clicks,
        impressions,
        ctr: clicks / impressions,
        position: 5,
      })),
    )
    .execute()
}

async function insertSiteChanges(ts: TestSystem, clientId: number, orgId: number, at: readonly string[]) {
  await ts.system.read
    .insertInto('site_changes')
    .values(
      at.map((detected) => ({
        id: nextRow++,
        org_id: orgId,
        client_id: clientId,
        page_id: 1,
        url: 'https://plumbers.example.com/',
        kind: 'title_changed' as const,
        severity: 'low' as const,
        before: 'a',
        after: 'b',
        words_changed: null,
        attribution: 'external' as const,
        edit_id: null,
        snapshot_id: nextRow++,
        previous_snapshot_id: null,
        detected_at: new Date(detected),
      })),
    )
    .execute()
}

t.test('compare reports over HTTP', async (t) => {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const a = await orgWithKey(ts, 'Acme Agency')
  const b = await orgWithKey(ts, 'Bravo Agency')
  const client = await ts.call<number>(
    'add_client',
    clientPayload('Plumbers', { name: HOSTILE, website_url: 'https://plumbers.example.com' }),
    a.key,
  )
  const foreignClient = await ts.call<number>('add_client', clientPayload('Bravo Client'), b.key)

  // Positions: four keywords, checked in February and March (the latest check of each month counts).
  const kw = async (keyword: string) => ts.call<number>('add_keyword', { keyword: { client_id: client, keyword } }, a.key)
  const [drains, heaters, sewer, boilers] = [
    await kw('drain cleaning'),
    await kw('water heaters'),
    await kw(`sewer ${HOSTILE}`),
    await kw('boilers'),
  ]
  const rank = (keyword_id: number, date: string, position: number | null, device = 'desktop') => ({ keyword_id, device, date, position })
  await ts.call(
    'record_keyword_ranks',
    {
      client_id: client,
      ranks: [
        rank(drains, '2026-02-03', 30),
        rank(drains, '2026-02-20', 12), // February's latest: 12
        rank(heaters, '2026-02-20', 4),
        rank(sewer, '2026-02-20', null),
        rank(boilers, '2026-02-20', 60),
        rank(drains, '2026-03-20', 3),
        rank(drains, '2026-03-20', 8, 'mobile'), // the best of the day's rows: 3
        rank(heaters, '2026-03-20', 9),
        rank(sewer, '2026-03-20', 40),
        rank(boilers, '2026-03-20', 60),
      ],
    },
    a.key,
  )

  // Search Console: February 10 clicks / 200 impressions a day on 28 days, March 20 / 300 on 31.
  const days = (month: string, n: number) => Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)
  await insertGscDays(ts, client, a.orgId, days('2026-02', 28), 10, 200)
  await insertGscDays(ts, client, a.orgId, days('2026-03', 31), 20, 300)

  // AI Visibility: February 4 of 10 answers present, March 7 of 10.
  const question = await insertQuestion(ts.system.read, { clientId: client, orgId: a.orgId, service: 'Drains', prompt: 'best plumber' })
  const base = { clientId: client, orgId: a.orgId, queryId: question }
  await insertCaptures(ts.system.read, [
    ...captureBatch({ ...base, month: '2026-02' }, 10, 4),
    ...captureBatch({ ...base, month: '2026-03' }, 10, 7),
  ])

  // Site changes: two in February, three in March (one on its last second), one in April.
  await insertSiteChanges(ts, client, a.orgId, [
    '2026-02-05T10:00:00Z',
    '2026-02-28T23:59:59Z',
    '2026-03-01T00:00:00Z',
    '2026-03-10T00:00:00Z',
    '2026-03-31T23:59:59Z',
    '2026-04-01T00:00:00Z',
  ])

  // Action items: February's three (one done), closed with two carried into March; March adds one more, done.
  const write = ts.system.write
  const ctx = systemContext('test')
  const feb = { clientId: client, callerOrgId: a.orgId, month: '2026-02' }
  const { added } = await addActionItems(write, ctx, feb, [
    item('Rewrite the drains title', 'insight:1'),
    item('Fix redirects', 'insight:2'),
    item('Add FAQ', 'insight:3'),
  ])
  await setActionItemStatus(write, ctx, { ...feb, itemId: added[0]! }, { status: 'done' })
  const closed = await closeActionItemMonth(write, ctx, { ...feb, nextMonth: '2026-03', budgetHours: null })
  const mar = { clientId: client, callerOrgId: a.orgId, month: '2026-03' }
  const more = await addActionItems(write, ctx, mar, [item(`Rewrite the heaters title ${HOSTILE}`, 'insight:4')])
  const last = await setActionItemStatus(write, ctx, { ...mar, itemId: more.added[0]! }, { status: 'done' })
  await readModelsAt(ts, last.position)
  t.equal(closed.carried.length, 2)

  let report: any
  await t.test('create_compare_report: March against February, with each area numbers', async (t) => {
    report = await ts.call('create_compare_report', { client_id: client, month: '2026-03' }, a.key)
    const path = `compare-reports/${a.orgId}/${client}/2026-03.html`
    t.match(report, {
      report_id: Number,
      client_id: client,
      month: '2026-03',
      against_month: '2026-02',
      path,
      url: `/api/v1/files/${path}`,
      content_type: 'text/html; charset=utf-8',
      bytes: Number,
      sha256: /^[0-9a-f]{64}$/,
      created_at: NOW.toISOString(),
      filed_at: NOW.toISOString(),
    })
    t.strictSame(report.summary, {
      month: {
        keywords_ranked: 4,
        top_3: 1,
        top_10: 2,
        top_100: 4,
        average_position: 28, // (3 + 9 + 40 + 60) / 4
        clicks: 620,
        impressions: 9300,
        ai_answers: 10,
        ai_present: 7,
        site_changes: 3,
        items_planned: 3,
        items_done: 1,
        items_carried: 2,
      },
      against: {
        keywords_ranked: 4,
        top_3: 0,
        top_10: 1,
        top_100: 3,
        average_position: 25.3, // (12 + 4 + 60) / 3
        clicks: 280,
        impressions: 5600,
        ai_answers: 10,
        ai_present: 4,
        site_changes: 2,
        items_planned: 3,
        items_done: 1,
        items_carried: 0,
      },
    })
    const events = await streamEvents(ts, `compare_reports-${client}`)
    t.equal(events.length, 1)
    t.match(events[0], {
      type: 'CompareReportFiled',
      data: { report_id: report.report_id, month: '2026-03', against_month: '2026-02' },
      metadata: { org_id: a.orgId },
    })
  })

  await t.test('the page downloads through /api/v1/files to its organization only', async (t) => {
    const get = (url: string, key: string) => ts.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } })
    const download = await get(report.url, a.key)
    t.equal(download.statusCode, 200)
    t.equal(download.headers['content-type'], 'text/html; charset=utf-8')
    t.equal(createHash('sha256').update(download.rawPayload).digest('hex'), report.sha256, 'the body is the recorded file')
    const html = download.payload
    t.notMatch(html, '<script', 'names from data are escaped')
    t.match(html, '&#60;script&#62;')
    t.match(html, '<td class="num">280</td><td class="num">620</td><td class="num"><span class="verdict moved-up">+340</span>', 'clicks')
    t.match(html, '<td class="num">#12</td><td class="num">#3</td>', 'drain cleaning moved up')
    t.match(html, 'not in top 100</td><td class="num">#40</td>', 'sewer came into the top 100')
    t.match(html, 'Rewrite the heaters title', "the month's done work")
    t.match(html, 'Fix redirects', 'the open carried items')
    expectError(t, await get(report.url, b.key), 404, 'not_found', 'another organization')
  })

  await t.test('filing the month again keeps its report and replaces the file', async (t) => {
    const again = await ts.call('create_compare_report', { client_id: client, month: '2026-03', against_month: '2025-03' }, a.key)
    t.equal(again.report_id, report.report_id, 'one report per client-month')
    t.equal(again.against_month, '2025-03')
    t.equal(again.created_at, report.created_at)
    t.equal(again.summary.against.keywords_ranked, 0, 'a month without data counts zeros')
    t.equal(again.summary.against.average_position, null)
    t.not(again.sha256, report.sha256, 'the file was replaced')
    t.strictSame(await ts.call('get_compare_report', { report_id: report.report_id }, a.key), again)
    report = again
  })

  await t.test('get_compare_reports_for_org: newest first, paged, own organization only', async (t) => {
    const feb = await ts.call('create_compare_report', { client_id: client, month: '2026-02' }, a.key)
    t.equal(feb.against_month, '2026-01')
    t.not(feb.report_id, report.report_id)
    const list = await ts.call<any[]>('get_compare_reports_for_org', {}, a.key)
    t.strictSame(
      list.map((r) => [r.report_id, r.month]),
      [
        [feb.report_id, '2026-02'],
        [report.report_id, '2026-03'],
      ].sort((x, y) => (y[0] as number) - (x[0] as number)),
      'the latest filed first (same time: the higher id first)',
    )
    t.equal((await ts.call<any[]>('get_compare_reports_for_org', { limit: 1 }, a.key)).length, 1)
    t.strictSame(await ts.call('get_compare_reports_for_org', {}, b.key), [], 'the other organization has none')
    t.strictSame(
      await ts.call('get_compare_reports_for_org', { org_id: a.orgId }, ts.platformKey),
      list,
      'a platform key names the organization',
    )
  })

  await t.test('the org export includes the report files', async (t) => {
    const paths: string[] = []
    await withReadSnapshot(ts.system.database.db, async (trx, schema) => {
      for await (const page of orgReportPaths(trx, schema, a.orgId, 10)) paths.push(...page.map((p) => p.path))
    })
    t.strictSame(paths.sort(), [`compare-reports/${a.orgId}/${client}/2026-02.html`, `compare-reports/${a.orgId}/${client}/2026-03.html`])
  })

  await t.test("another organization's client and report answer like missing ones; bad months are refused", async (t) => {
    const before = await eventCount(ts)
    const foreign = expectError(t, await ts.rpc('create_compare_report', { client_id: client, month: '2026-03' }, b.key), 404, 'not_found')
    const missing = expectError(t, await ts.rpc('create_compare_report', { client_id: 999_999, month: '2026-03' }, b.key), 404, 'not_found')
    t.equal(foreign.error, missing.error)
    const foreignReport = expectError(t, await ts.rpc('get_compare_report', { report_id: report.report_id }, b.key), 404, 'not_found')
    const missingReport = expectError(t, await ts.rpc('get_compare_report', { report_id: 999_999 }, b.key), 404, 'not_found')
    t.equal(foreignReport.error, missingReport.error)
    expectError(t, await ts.rpc('create_compare_report', { client_id: client, month: '2026-13' }, a.key), 400, 'validation_failed')
    expectError(
      t,
      await ts.rpc('create_compare_report', { client_id: client, month: '2026-03', against_month: '2026-03' }, a.key),
      400,
      'validation_failed',
    )
    t.equal(await eventCount(ts), before, 'refusals record nothing')
    t.ok(foreignClient)
  })
})
