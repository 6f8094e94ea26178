/**
 * Retry backoff through the RPCs, on a hand-moved clock: a failed run is queued again but not claimable
 * before its retry_at (the schedule's entry for its attempt, or the agent's retry_after_seconds), the
 * queue's counts still show it as queued (and as waiting), and cancelling still reaches it.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey, streamEvents } from './helpers.js'
import { caps, clientWithQuestions, handClock } from './aeo-runs-helpers.js'
import { readModelsCaughtUp } from '../support/read-models.js'

const START = '2026-11-15T12:00:00.000Z'
const settings = {
  claimLeaseSeconds: 600,
  maxAttempts: 4,
  retryBackoffSeconds: [60, 300],
  recordRetentionDays: 90,
  agentOnlineSeconds: 300,
}
const plus = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString()

t.test('a failed run waits for its retry time', async (t) => {
  const clock = handClock(START)
  const ts = await startTestSystem(t, { clock: clock.now, aeo: settings })
  const acme = await orgWithKey(ts, 'Acme')
  const { clientId } = await clientWithQuestions(ts, acme.key, 'Acme Backoff', 2)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 1, engines: ['claude'] }, acme.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 2)

  const claim = () =>
    ts.call<{ id: number; attempt: number }[]>(
      'claim_aeo_runs',
      { agent_id: 'device', capabilities_json: caps(['claude']), limit: 5 },
      acme.key,
    )
  const runOf = async (id: number) => (await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)).find((r) => r.id === id)
  const fail = (id: number, extra: Record<string, unknown> = {}) =>
    ts.call<{ status: string; attempts: number; retry: boolean; retry_at: string | null }>(
      'fail_aeo_run',
      { run_id: id, agent_id: 'device', error: 'provider down', ...extra },
      acme.key,
    )

  const [first, second] = await claim()
  t.ok(first && second, 'both runs claimed')
  await readModelsCaughtUp(ts)
  const runId = first!.id

  await t.test('the first failure waits the first entry of the schedule', async (t) => {
    const failedAt = clock.now()
    t.same(await fail(runId), { status: 'queued', attempts: 1, retry: true, retry_at: plus(failedAt, 60) })
    const run = await runOf(runId)
    t.match(run, { status: 'queued', attempts: 1, error: 'provider down', retry_at: plus(failedAt, 60), agent_id: null })
    const failure = (await streamEvents(ts, `aeo_run-${runId}`)).find((e) => e.type === 'AeoRunFailed')!
    t.equal(failure.data.retry_at, plus(failedAt, 60), 'the retry time is recorded in the log')
  })

  await t.test('the queue counts it as queued, and as waiting for its retry', async (t) => {
    t.match(await ts.call('get_aeo_run_stats', { client_id: clientId }, acme.key), { queued: 1, claimed: 1, total: 2 })
    const overview = await ts.call<any>('get_aeo_queue_overview', {}, acme.key)
    t.match(overview.stats, { queued: 1, claimed: 1 })
    t.equal(overview.waiting_retry, 1)
    t.match(overview.engines, [{ engine: 'claude', queued: 1, claimed: 1 }])
  })

  await t.test('not claimable before retry_at, claimable from it', async (t) => {
    t.same(await claim(), [], 'at once: nothing')
    clock.advance(60_000 - 1)
    t.same(await claim(), [], 'a millisecond early: nothing')
    clock.advance(1)
    t.equal((await ts.call<any>('get_aeo_queue_overview', {}, acme.key)).waiting_retry, 0, 'no longer waiting')
    const again = await claim()
    t.same(
      again.map((r) => [r.id, r.attempt]),
      [[runId, 2]],
      'claimed again, attempt 2',
    )
    await readModelsCaughtUp(ts)
    t.equal((await runOf(runId)).retry_at, null, 'a claim clears the retry time')
  })

  await t.test('the second failure waits the second entry', async (t) => {
    const failedAt = clock.now()
    t.same(await fail(runId), { status: 'queued', attempts: 2, retry: true, retry_at: plus(failedAt, 300) })
    clock.advance(299_999)
    t.same(await claim(), [])
    clock.advance(1)
    t.same(
      (await claim()).map((r) => r.attempt),
      [3],
    )
  })

  await t.test("an agent's retry_after_seconds (a provider's Retry-After) replaces the schedule", async (t) => {
    expectError(
      t,
      await ts.rpc('fail_aeo_run', { run_id: runId, agent_id: 'device', error: 'x', retry_after_seconds: -1 }, acme.key),
      400,
      'validation_failed',
    )
    expectError(
      t,
      await ts.rpc('fail_aeo_run', { run_id: runId, agent_id: 'device', error: 'x', retry_after_seconds: 86_401 }, acme.key),
      400,
      'validation_failed',
    )
    const failedAt = clock.now()
    t.same(await fail(runId, { retry_after_seconds: 7 }), { status: 'queued', attempts: 3, retry: true, retry_at: plus(failedAt, 7) })
    clock.advance(6_999)
    t.same(await claim(), [])
    clock.advance(1)
    t.same(
      (await claim()).map((r) => r.attempt),
      [4],
    )
  })

  await t.test('the last attempt fails for good, with no retry time', async (t) => {
    t.same(await fail(runId, { retry_after_seconds: 30 }), { status: 'failed', attempts: 4, retry: false, retry_at: null })
    t.match(await runOf(runId), { status: 'failed', retry_at: null })
  })

  await t.test('a run waiting for its retry can still be cancelled', async (t) => {
    await fail(second!.id)
    t.equal((await ts.call<any>('get_aeo_queue_overview', {}, acme.key)).waiting_retry, 1)
    t.equal(await ts.call('cancel_aeo_runs', { client_id: clientId }, acme.key), 1)
    t.match(await runOf(second!.id), { status: 'cancelled', retry_at: null })
    const overview = await ts.call<any>('get_aeo_queue_overview', {}, acme.key)
    t.equal(overview.waiting_retry, 0)
    t.match(overview.stats, { queued: 0, claimed: 0, failed: 1, cancelled: 1, total: 2 })
  })
})
