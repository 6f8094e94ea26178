import { systemContext } from '../../../commands/command-handler.js'
import {
  completeRankCheck,
  failRankCheck,
  failRankCheckTask,
  loadClientChecks,
  reportRankCheckProgress,
  startRankCheck,
} from '../../../commands/search/rank-checks/checks.js'
import { recordKeywordRanks } from '../../../commands/search/ranks.js'
import { checkPlan } from '../../../domain/search/rank-checks/plan.js'
import { NO_SERP_FEATURES, type RankRow } from '../../../domain/search/ranks/rank-row.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The rank-checks part of the realistic log: cadences through set_rank_cadence (set, repeated, changed, turned
 * off, a foreign one refused), checks through run_rank_check (a second call answering the open one), and what
 * the runner records, through its commands: a check taken, reporting progress, a failed task, its rows
 * recorded through record_keyword_ranks' command and completed; a check whose worker stopped, resumed by a
 * second take and failed on a refused key; a check failed before any take (no provider). Runs after the
 * keywords part, whose keywords it checks.
 */
export async function writeRankChecksLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const write = ts.system.write
  const context = systemContext('rank-check-runner')
  const [plumbers, heaters] = log.clientIds as [number, number]

  await call('set_rank_cadence', { client_id: plumbers, frequency: 'daily' }, keys.orgA)
  await call('set_rank_cadence', { client_id: plumbers, frequency: 'daily', devices: ['mobile', 'desktop'] }, keys.orgA) // the same
  await call('set_rank_cadence', { client_id: plumbers, frequency: 'weekly', devices: ['desktop'] }, keys.orgA)
  await call('set_rank_cadence', { client_id: heaters, frequency: 'daily', devices: ['mobile'] }, keys.orgA)
  await call('set_rank_cadence', { client_id: heaters, frequency: 'off' }, keys.orgA)
  const foreign = await ts.rpc('set_rank_cadence', { client_id: plumbers, frequency: 'off' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign cadence answered ${foreign.statusCode}`)

  const keywords = await call<{ id: number }[]>('get_keywords_for_client', { client_id: plumbers }, keys.orgA)
  const keywordIds = keywords.map((k) => k.id).slice(0, 3)

  // A check run to the end: taken, a progress report, one task failed, two rows recorded, completed.
  const first = await call<{ id: number; created: boolean }>('run_rank_check', { client_id: plumbers }, keys.orgA)
  const again = await call<{ id: number; created: boolean }>('run_rank_check', { client_id: plumbers }, keys.orgA)
  if (again.id !== first.id || again.created) throw new Error('a second run_rank_check queued another check')
  const open = (await loadClientChecks(write, plumbers)).open!
  const plan = checkPlan(keywordIds, [], open.devices)
  const taken = await startRankCheck(write, context, {
    clientId: plumbers,
    checkId: first.id,
    leaseMs: 60_000,
    worker: 'realistic:1',
    provider: 'dataforseo',
    tasksRecorded: 0,
    plan,
  })
  const attempt = taken.open!.attempt
  const rows: RankRow[] = keywordIds.slice(0, 2).map((keyword_id, i) => ({
    keyword_id,
    location_id: null,
    device: 'desktop',
    date: open.date,
    position: i === 0 ? 4 : null,
    url: i === 0 ? 'https://acme-plumbing.example.com/drains' : null,
    page_id: null,
    competitors: ['rotorooter.com', 'yelp.com'],
    serp_features: { ...NO_SERP_FEATURES, ai_overview: true, ai_overview_cites_client: i === 0 },
    source: 'dataforseo',
  }))
  await reportRankCheckProgress(write, context, {
    clientId: plumbers,
    checkId: first.id,
    attempt,
    leaseMs: 60_000,
    tasks_done: 0,
    tasks_failed: 0,
    calls: 2,
    retries: 1,
  })
  await failRankCheckTask(write, context, {
    clientId: plumbers,
    checkId: first.id,
    attempt,
    keywordId: keywordIds[2]!,
    locationId: null,
    device: 'desktop',
    error: { code: 'rank_provider_unavailable', message: 'HTTP 503: Service Temporarily Unavailable. (50301)' },
    tries: 4,
  })
  await recordKeywordRanks(write, context, { clientId: plumbers, rows, checkId: first.id, overwrite: false })
  await completeRankCheck(write, context, {
    clientId: plumbers,
    checkId: first.id,
    attempt,
    tasks_done: 2,
    tasks_failed: 1,
    calls: 5,
    retries: 3,
  })

  // A check whose first worker stopped: its lease runs out, a second take resumes it, the key is refused.
  const second = await call<{ id: number; created: boolean }>('run_rank_check', { client_id: plumbers }, keys.orgA)
  const lapsed = await startRankCheck(write, context, {
    clientId: plumbers,
    checkId: second.id,
    leaseMs: -1,
    worker: 'realistic:1',
    provider: 'dataforseo',
    tasksRecorded: 2,
    plan,
  })
  const resumed = await startRankCheck(write, context, {
    clientId: plumbers,
    checkId: second.id,
    leaseMs: 60_000,
    worker: 'realistic:2',
    provider: 'dataforseo',
    tasksRecorded: 2,
    plan,
  })
  if (resumed.open!.attempt !== lapsed.open!.attempt + 1) throw new Error('the second take is not attempt 2')
  await failRankCheck(write, context, {
    clientId: plumbers,
    checkId: second.id,
    attempt: resumed.open!.attempt,
    error: { code: 'rank_provider_unauthorized', message: 'HTTP 401: You are not authorized to access this resource. (40100)' },
    tasks_done: 2,
    tasks_failed: 0,
    calls: 1,
    retries: 0,
  })

  // A check no worker could take: no provider configured.
  const third = await call<{ id: number }>('run_rank_check', { client_id: heaters }, keys.orgA)
  await failRankCheck(write, context, {
    clientId: heaters,
    checkId: third.id,
    attempt: null,
    error: { code: 'rank_provider_not_configured', message: 'no rank provider is configured' },
    tasks_done: 0,
    tasks_failed: 0,
    calls: 0,
    retries: 0,
  })
  const hidden = await ts.rpc('get_rank_check', { check_id: third.id }, keys.orgB)
  if (hidden.statusCode !== 404) throw new Error(`a foreign check answered ${hidden.statusCode}`)
}
