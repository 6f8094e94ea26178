/**
 * The sandbox's fictional Search Console, read with the sandbox key: the client's URL-prefix property through a
 * service account (no credentials recorded, no cadence), two completed captures four weeks apart, and a snapshot
 * of the default period that compares with the period before it, both covered.
 */
import t from 'tap'
import { addDays, dayOf, defaultCaptureRange } from '../../domain/search/gsc/dates.js'
import { SANDBOX_CLIENT } from '../../domain/sandbox/fixture.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { startTestSystem } from '../support/system.js'

const ts = await startTestSystem(t)
const seeded = await resetSandbox({
  write: ts.system.write,
  read: ts.system.read,
  db: ts.system.database.db,
  watermark: ts.system.watermark,
  log: ts.system.log,
})
const call = <T = any>(method: string, body: unknown) => ts.call<T>(method, body, SANDBOX_KEY)
const clientId = seeded.clientId

t.test('a property with no credentials recorded and no cadence, so nothing ever calls Google for fiction', async (t) => {
  t.match(await call('get_gsc_property', { client_id: clientId }), {
    property: SANDBOX_CLIENT.websiteUrl,
    property_type: 'url_prefix',
    auth_type: 'service_account',
    service_account_email: /@rapid-rooter-sandbox\.iam\.gserviceaccount\.com$/,
    cadence: 'off',
  })
  const { rows } = await ts.database.pool.query<{ sealed: string | null }>(
    "select data->>'sealed_credentials' as sealed from es_events where type = 'GscPropertySet'",
  )
  t.same(rows, [{ sealed: null }])
})

t.test('two completed captures of 28 days, four weeks apart, and a snapshot comparing them', async (t) => {
  const period = defaultCaptureRange(dayOf(ts.system.write.clock()))
  const captures = await call<any[]>('list_gsc_keyword_captures', { client_id: clientId })
  t.equal(captures.length, 2)
  t.match(captures[0], { status: 'completed', start_date: period.start, end_date: period.end, days_recorded: 28 })
  t.match(captures[1], { status: 'completed', end_date: addDays(period.start, -1), days_recorded: 28 })
  for (const c of captures) t.ok(c.row_count > 28 * 10, `capture ${c.id} has rows`)
  const keywords = await call<any[]>('get_gsc_capture_keywords', { capture_id: captures[0].id })
  t.equal(keywords[0].query, 'rapid rooter plumbing', 'the brand query leads')
  const snapshot = await call<any>('get_gsc_snapshot', {
    client_id: clientId,
    period_start: period.start,
    period_end: period.end,
    level: 'page',
  })
  t.match(snapshot.period, { covered_days: 28, uncovered: [] })
  t.match(snapshot.previous_period, { covered_days: 28, uncovered: [] })
  t.ok(snapshot.totals.current.impressions > snapshot.totals.previous.impressions, 'the site grows')
  t.ok(snapshot.rows.length >= 5 && snapshot.rows.every((r: any) => r.previous !== null), 'every page compares with the period before')
})
