/**
 * Rank checks when the provider fails, end to end through HTTP with the processors running: an outage is
 * retried with backoff and shows on the check (retries, provider calls); an outage that outlasts the retries
 * fails the check as rank_provider_unavailable with its failed tasks listed, and the next check of the day
 * fetches only the ranks still missing, so no row is lost or recorded twice; a 401 or 402 fails the check
 * at once with its code, is not retried, and the runner goes on serving other clients. SerpApi, when it is
 * the one configured, and no provider at all.
 */
import t from 'tap'
import type { TestSystem } from '../support/system.js'
import { startDataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import type { ReceivedSearch, StandInBehaviour } from '../support/stand-ins/serp-fixture.js'
import { startSerpApiStandIn } from '../support/stand-ins/serpapi.js'
import { startTestSystem } from '../support/system.js'
import { eventually } from './aeo-runs-helpers.js'
import { orgWithKey } from './helpers.js'
import { keysOf, rankRowsOf, searchSettings, type RankCheck } from './search-rank-checks-helpers.js'

/** A client of the key's organization with these keywords, checked on desktop only (a cadence that is off). */
async function clientWithKeywords(
  ts: TestSystem,
  key: string,
  name: string,
  keywords: readonly string[],
): Promise<{ clientId: number; ids: number[] }> {
  const site = `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`
  const clientId = await ts.call<number>('add_client', { client: { name, website_url: site } }, key)
  const ids: number[] = []
  for (const keyword of keywords) ids.push(await ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword } }, key))
  await ts.call('set_rank_cadence', { client_id: clientId, frequency: 'off', devices: ['desktop'] }, key)
  return { clientId, ids }
}

async function finished(ts: TestSystem, key: string, checkId: number): Promise<RankCheck> {
  return eventually(async () => {
    const check = await ts.call<RankCheck>('get_rank_check', { check_id: checkId }, key)
    return check.status === 'completed' || check.status === 'failed' ? check : undefined
  }, `check ${checkId} to finish`)
}

const run = (ts: TestSystem, key: string, clientId: number) => ts.call<RankCheck>('run_rank_check', { client_id: clientId }, key)

t.test('DataForSEO failing', async (t) => {
  const standIn = await startDataForSeoSerpStandIn(t)
  // One search at a time, so which call meets which failure is the order of the plan.
  const ts = await startTestSystem(t, { runProcessors: true, search: searchSettings({ dataforseo: standIn }, { rankConcurrency: 1 }) })
  const org = await orgWithKey(ts, 'Agency')

  await t.test('a short outage is retried with backoff: the check completes and shows its retries', async (t) => {
    const { clientId } = await clientWithKeywords(ts, org.key, 'Short Outage Co', ['leak repair', 'pipe repair'])
    standIn.script({ kind: 'http', status: 503 }, { kind: 'http', status: 500 })
    const check = await finished(ts, org.key, (await run(ts, org.key, clientId)).id)
    t.match(check, { status: 'completed', tasks_total: 2, tasks_done: 2, tasks_failed: 0, provider_calls: 4, retries: 2, error: null })
    const rows = await rankRowsOf(ts, clientId)
    t.equal(rows.length, 2)
    t.equal(new Set(keysOf(rows)).size, 2, 'no row twice')
  })

  await t.test('a long outage fails the check as unavailable; the next check fetches only what is missing', async (t) => {
    const { clientId, ids } = await clientWithKeywords(ts, org.key, 'Long Outage Co', ['k one', 'k two', 'k three', 'k four'])
    standIn.otherwise(
      (search: ReceivedSearch): StandInBehaviour => (search.keyword === 'k one' ? { kind: 'ok' } : { kind: 'http', status: 503 }),
    )
    const before = standIn.searches.length
    const failed = await finished(ts, org.key, (await run(ts, org.key, clientId)).id)
    t.match(failed, {
      status: 'failed',
      tasks_total: 4,
      tasks_done: 1,
      tasks_failed: 3,
      provider_calls: 10,
      retries: 6,
      error: { code: 'rank_provider_unavailable' },
    })
    t.match(failed.error?.message, /3 searches in a row failed after 3 tries each; last: HTTP 503/)
    t.same(
      failed.failed_tasks.map((f) => [f.keyword_id, f.device, f.error_code, f.tries]),
      ids.slice(1).map((id) => [id, 'desktop', 'rank_provider_unavailable', 3]),
    )
    t.equal(standIn.searches.length - before, 10)
    t.same(
      keysOf(await rankRowsOf(ts, clientId)).map((k) => Number(k.split('|')[0])),
      [ids[0]],
      'the rank fetched before the outage is kept',
    )

    standIn.otherwise({ kind: 'ok' })
    const resumedAt = standIn.searches.length
    const second = await finished(ts, org.key, (await run(ts, org.key, clientId)).id)
    t.match(second, { status: 'completed', date: failed.date, tasks_total: 4, tasks_done: 4, tasks_failed: 0, provider_calls: 3 })
    t.same(
      standIn.searches.slice(resumedAt).map((s) => s.keyword),
      ['k two', 'k three', 'k four'],
      'only the missing ranks were searched',
    )
    const rows = await rankRowsOf(ts, clientId)
    t.equal(rows.length, 4)
    t.equal(new Set(keysOf(rows)).size, 4, 'every rank once: none lost, none twice')
  })

  await t.test('a 401 fails the check at once, is not retried, and the runner serves the next client', async (t) => {
    const refused = await clientWithKeywords(ts, org.key, 'Refused Co', ['a one', 'a two'])
    standIn.otherwise({ kind: 'http', status: 401, message: 'You are not authorized to access this resource.' })
    const before = standIn.searches.length
    const check = await finished(ts, org.key, (await run(ts, org.key, refused.clientId)).id)
    t.match(check, { status: 'failed', provider_calls: 1, retries: 0, tasks_done: 0, error: { code: 'rank_provider_unauthorized' } })
    t.match(check.error?.message, /HTTP 401: You are not authorized to access this resource\. \(40100\)/)
    await new Promise((resolve) => setTimeout(resolve, 500)) // ten polls of the runner
    t.equal(standIn.searches.length - before, 1, 'one call, and none after: no retry, no loop')
    t.equal((await ts.call<RankCheck>('get_rank_check', { check_id: check.id }, org.key)).status, 'failed')

    standIn.otherwise({ kind: 'ok' })
    const next = await clientWithKeywords(ts, org.key, 'Next Co', ['b one'])
    t.match(await finished(ts, org.key, (await run(ts, org.key, next.clientId)).id), { status: 'completed', tasks_done: 1 })
  })

  await t.test('a 402 and an empty balance (40210) fail the check as rank_provider_payment_required', async (t) => {
    const broke = await clientWithKeywords(ts, org.key, 'Broke Co', ['c one', 'c two'])
    standIn.script({ kind: 'http', status: 402 })
    const check = await finished(ts, org.key, (await run(ts, org.key, broke.clientId)).id)
    t.match(check, {
      status: 'failed',
      provider_calls: 1,
      error: { code: 'rank_provider_payment_required', message: /HTTP 402: Payment Required\. \(40200\)/ },
    })
    const funds = await clientWithKeywords(ts, org.key, 'Funds Co', ['d one'])
    standIn.script({ kind: 'status', statusCode: 40210, message: 'Payment required. Insufficient funds.', envelope: true })
    const second = await finished(ts, org.key, (await run(ts, org.key, funds.clientId)).id)
    t.match(second, { status: 'failed', error: { code: 'rank_provider_payment_required', message: /Insufficient funds\. \(40210\)/ } })
  })
})

t.test('SerpApi, when it is the provider configured', async (t) => {
  const standIn = await startSerpApiStandIn(t)
  const ts = await startTestSystem(t, { runProcessors: true, search: searchSettings({ serpapi: standIn }) })
  const org = await orgWithKey(ts, 'Agency')
  const clientId = await ts.call<number>(
    'add_client',
    { client: { name: 'Acme Plumbing', website_url: 'https://acmeplumbing.example' } },
    org.key,
  )
  await ts.call('add_location', { location: { client_id: clientId, name: 'Austin, TX' } }, org.key)
  const keywordId = await ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: 'drain cleaning austin' } }, org.key)
  standIn.pages(() => ({
    organic: ['https://rival.example/', 'https://www.acmeplumbing.example/drains'],
    aiOverview: { references: ['https://acmeplumbing.example/faq'], deferred: true },
  }))
  const check = await finished(ts, org.key, (await run(ts, org.key, clientId)).id)
  t.match(
    check,
    { status: 'completed', provider: 'serpapi', tasks_total: 2, tasks_done: 2, provider_calls: 4 },
    'two searches and two AI Overview fetches',
  )
  t.same(
    standIn.searches.map((s) => [s.location, s.device]),
    [
      ['Austin, Texas, United States', 'desktop'],
      ['Austin, Texas, United States', 'mobile'],
    ],
  )
  t.match(await ts.call('get_latest_rank', { keyword_id: keywordId }, org.key), {
    position: 2,
    source: 'serpapi',
    serp_features: { ai_overview: true, ai_overview_cites_client: true },
  })
})

t.test('no provider configured: the check fails with rank_provider_not_configured', async (t) => {
  const ts = await startTestSystem(t, { runProcessors: true, search: searchSettings({}) })
  const org = await orgWithKey(ts, 'Agency')
  const { clientId } = await clientWithKeywords(ts, org.key, 'Unconfigured Co', ['e one'])
  const check = await finished(ts, org.key, (await run(ts, org.key, clientId)).id)
  t.match(check, {
    status: 'failed',
    attempt: 0,
    provider: null,
    error: { code: 'rank_provider_not_configured', message: /DATAFORSEO_LOGIN/ },
  })
})
