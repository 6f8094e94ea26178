/**
 * The sandbox's rank checks: its fiction (a weekly cadence, today's scheduled check refused for payment, the
 * check run by hand after it, with today's ranks) reads through the sandbox key, and the processors never
 * queue a check for it, even when its cadence is due: no provider call is spent on fiction.
 */
import t from 'tap'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { startDataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import { startTestSystem } from '../support/system.js'
import { handClock } from './aeo-runs-helpers.js'
import { rankRowsOf, searchSettings, type RankCheck } from './search-rank-checks-helpers.js'

t.test("the sandbox's rank checks are fiction the processors leave alone", async (t) => {
  const standIn = await startDataForSeoSerpStandIn(t)
  const clock = handClock('2026-11-27T15:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now, runProcessors: true, search: searchSettings({ dataforseo: standIn }) })
  const s = ts.system
  const seeded = await resetSandbox({ write: s.write, read: s.read, db: s.database.db, watermark: s.watermark, log: s.log })
  const clientId = seeded.clientId

  t.match(await ts.call('get_rank_cadence', { client_id: clientId }, SANDBOX_KEY), { frequency: 'weekly', devices: ['desktop', 'mobile'] })
  const checks = await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, SANDBOX_KEY)
  t.match(checks, [
    { date: '2026-11-27', trigger: 'manual', status: 'completed', provider: 'dataforseo', tasks_failed: 0, error: null },
    { date: '2026-11-27', trigger: 'cadence', status: 'failed', provider_calls: 1, error: { code: 'rank_provider_payment_required' } },
  ])
  const done = checks[0]!
  t.equal(done.tasks_done, done.tasks_total, 'every rank of today recorded')
  const today = (await rankRowsOf(ts, clientId)).filter((r) => r.date === '2026-11-27')
  t.equal(today.length, done.tasks_total, "one row per task, all the manual check's")
  t.ok(today.every((r) => r.check_id === done.id))

  // A week later the weekly cadence is due: the scheduler passes over the sandbox organization.
  clock.advance(7 * 86_400_000)
  await new Promise((resolve) => setTimeout(resolve, 600)) // a dozen scheduler passes (SEARCH_POLL_MS 50)
  t.equal((await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, SANDBOX_KEY)).length, 2, 'no check queued')
  t.equal(standIn.searches.length, 0, 'no provider call')
})
