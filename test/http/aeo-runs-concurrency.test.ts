/**
 * The concurrency proofs: 20 concurrent agents over 1,000 queued runs claim every run exactly once
 * (counted from the log, not only from the answers); concurrent enqueuers in two processes never queue
 * more than due; a cancel racing claims leaves every run either claimed or cancelled, never both.
 */
import t from 'tap'
import pino from 'pino'
import { claimRuns, type ClaimedRun } from '../../commands/aeo/claims.js'
import { cancelQueuedRuns, enqueueDueRuns, type QueueDeps } from '../../commands/aeo/runs.js'
import { systemContext } from '../../commands/command-handler.js'
import { runQueueReads } from '../../projections/aeo/runs/run-queue-reads.js'
import { openSystem, type System } from '../../ops/system.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { clientWithQuestions, handClock, runEventTypes } from './aeo-runs-helpers.js'
import { readModelsCaughtUp } from '../support/read-models.js'

const LAST_DAY = '2026-11-30T12:00:00.000Z' // the whole month is due
const settings = { claimLeaseSeconds: 600, maxAttempts: 3, retryBackoffSeconds: [0], recordRetentionDays: 90, agentOnlineSeconds: 300 }

function queueDeps(system: System): QueueDeps {
  return {
    ...system.write,
    db: system.database.db,
    reads: runQueueReads(system.read),
    settings,
    waitForReadModels: (position) => system.watermark.waitFor(position, 30_000),
  }
}

/** A second process on the same database: its own pool, no projection runner (it polls the checkpoint). */
async function secondProcess(t: Parameters<typeof startTestSystem>[0], ts: TestSystem, clock: () => Date): Promise<System> {
  const other = await openSystem({ databaseUrl: ts.database.url, log: pino({ level: 'silent' }), clock, aeo: settings })
  t.teardown(() => other.close())
  return other
}

t.test('20 concurrent agents over 1,000 queued runs: every run claimed exactly once', async (t) => {
  const clock = handClock(LAST_DAY)
  const ts = await startTestSystem(t, { clock: clock.now, aeo: settings })
  const other = await secondProcess(t, ts, clock.now)
  const org = await orgWithKey(ts, 'Acme')
  const { clientId } = await clientWithQuestions(ts, org.key, 'Acme Plumbing', 25)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 20, engines: ['claude', 'chatgpt-web'] }, org.key)

  // Thirty enqueuers at once, in two processes (more than the pool has connections to hold locks with):
  // together they queue exactly what is due (25 × 2 × 20).
  const enqueuers = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? ts.system : other)).map((system) =>
    enqueueDueRuns(queueDeps(system), systemContext('test'), { clientIds: [clientId], reason: 'enqueue' }),
  )
  const queued = (await Promise.all(enqueuers)).map(([r]) => r!.queued)
  t.equal(
    queued.reduce((a, b) => a + b, 0),
    1000,
    `queued ${queued.filter((n) => n > 0).join(' + ')} = 1000, never more than due`,
  )
  t.same(await ts.call('get_aeo_run_stats', { client_id: clientId }, org.key), {
    queued: 1000,
    claimed: 0,
    running: 0,
    done: 0,
    failed: 0,
    cancelled: 0,
    total: 1000,
  })

  // 20 agents, half on each process, claiming 1–7 at a time until the queue is empty.
  const claimedBy = new Map<number, string>()
  const duplicates: number[] = []
  let calls = 0
  await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const system = i % 2 === 0 ? ts.system : other
      const deps = { ...system.write, db: system.database.db, reads: runQueueReads(system.read), settings }
      const agentId = `agent-${i}`
      const engines = i % 4 === 3 ? ['chatgpt-web'] : ['claude', 'chatgpt-web']
      let emptyInARow = 0
      while (emptyInARow < 3) {
        calls++
        const got: ClaimedRun[] = await claimRuns(deps, systemContext(agentId), {
          agentId,
          agentOrgId: i < 10 ? org.orgId : null,
          capabilities: { engines: engines as any, geo: 'any', max_per_day: null },
          limit: 1 + (i % 7),
        })
        for (const run of got) {
          if (claimedBy.has(run.id)) duplicates.push(run.id)
          claimedBy.set(run.id, agentId)
        }
        if (got.length === 0) {
          emptyInARow++
          // The queue looks empty only once the read model shows the last claims; let it catch up.
          await readModelsCaughtUp(ts)
        } else emptyInARow = 0
      }
    }),
  )
  t.same(duplicates, [], 'no run was handed to two agents')
  t.equal(claimedBy.size, 1000, `all 1,000 runs were claimed (${calls} claim calls)`)

  const log = await runEventTypes(ts)
  t.equal(log.size, 1000, '1,000 run streams')
  const wrong = [...log].filter(([, types]) => types.filter((x) => x === 'AeoRunClaimed').length !== 1)
  t.same(wrong, [], 'the log has exactly one AeoRunClaimed per run')
  await readModelsCaughtUp(ts)
  t.same(await ts.call('get_aeo_run_stats', { client_id: clientId }, org.key), {
    queued: 0,
    claimed: 1000,
    running: 0,
    done: 0,
    failed: 0,
    cancelled: 0,
    total: 1000,
  })
  const { rows } = await ts.database.pool.query<{ n: number }>(
    `select count(*)::int as n from read_models.aeo_runs where agent_id is null or attempts <> 1`,
  )
  t.equal(rows[0]!.n, 0, 'every run shows its agent and attempt 1')
})

t.test('cancel racing claims: each run is claimed or cancelled, never both', async (t) => {
  const clock = handClock(LAST_DAY)
  const ts = await startTestSystem(t, { clock: clock.now, aeo: settings })
  const other = await secondProcess(t, ts, clock.now)
  const org = await orgWithKey(ts, 'Acme')
  const { clientId } = await clientWithQuestions(ts, org.key, 'Acme Plumbing', 25)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 20, engines: ['claude'] }, org.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, org.key), 500)

  const claimed = new Set<number>()
  let stop = false
  const agents = Array.from({ length: 6 }, async (_, i) => {
    const system = i % 2 === 0 ? ts.system : other
    const deps = { ...system.write, db: system.database.db, reads: runQueueReads(system.read), settings }
    while (!stop) {
      const got = await claimRuns(deps, systemContext('agent'), {
        agentId: `agent-${i}`,
        agentOrgId: org.orgId,
        capabilities: { engines: ['claude'], geo: 'any', max_per_day: null },
        limit: 1,
      })
      for (const run of got) claimed.add(run.id)
      if (got.length === 0) await new Promise((r) => setTimeout(r, 5))
    }
  })
  // Let the agents get going, then cancel from the other process while they claim.
  while (claimed.size < 20) await new Promise((r) => setTimeout(r, 5))
  const cancelled = await cancelQueuedRuns(queueDeps(other), systemContext('test'), { clientId, reason: 'requested' })
  stop = true
  await Promise.all(agents)

  const log = await runEventTypes(ts)
  let bothOrNeither = 0
  let claimedInLog = 0
  let cancelledInLog = 0
  for (const [, types] of log) {
    const c = types.includes('AeoRunClaimed')
    const x = types.includes('AeoRunCancelled')
    if (c === x) bothOrNeither++
    if (c) claimedInLog++
    if (x) cancelledInLog++
  }
  t.equal(bothOrNeither, 0, 'no run is both claimed and cancelled, none is neither')
  t.equal(cancelledInLog, cancelled, `cancel_aeo_runs counted what it cancelled (${cancelled})`)
  t.equal(claimedInLog, claimed.size, `the agents got exactly the runs claimed in the log (${claimed.size})`)
  t.equal(claimedInLog + cancelledInLog, 500)
  t.ok(cancelled > 0 && claimed.size > 0, 'both sides won some')
})
