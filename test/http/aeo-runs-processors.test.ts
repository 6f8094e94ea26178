/**
 * The scheduler's processors: the run canceller (a process manager on its own checkpoint) cancels queued
 * runs when a question is deactivated or deleted, a client is paused or deleted, or a cadence is disabled
 * or drops an engine, and a late redelivery cancels nothing that is wanted again; the sweep queues what is
 * due for every enrolled client; stale claims are expired by the scheduler.
 */
import t from 'tap'
import { DEFAULT_AEO_PROCESSOR_SETTINGS } from '../../processors/aeo/settings.js'
import { CANCELLER_NAME, cancelForEvent, sweepDueRuns } from '../../processors/aeo/scheduler.js'
import type { ProcessorDeps } from '../../processors/runtime.js'
import { DEFAULT_JOB_SETTINGS } from '../../processors/jobs/settings.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { ephemeralServiceKey } from '../../commands/secrets/service-key.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS } from '../../processors/search/settings.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { orgWithKey, streamEvents } from './helpers.js'
import { caps, clientWithQuestions, eventually, handClock } from './aeo-runs-helpers.js'
import { readModelsCaughtUp } from '../support/read-models.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { systemResolver } from '../../commands/webhooks.js'

const settings = { claimLeaseSeconds: 60, maxAttempts: 3, retryBackoffSeconds: [60, 300], recordRetentionDays: 90, agentOnlineSeconds: 300 }

/** The same dependencies the processors role gives the scheduler. */
function processorDeps(ts: TestSystem): ProcessorDeps {
  const s = ts.system
  return {
    store: s.store,
    write: s.write,
    read: s.read,
    db: s.database.db,
    watermark: s.watermark,
    log: s.log,
    aeo: settings,
    aeoProcessors: { ...DEFAULT_AEO_PROCESSOR_SETTINGS, sweepIntervalMs: 3_600_000 },
    jobs: DEFAULT_JOB_SETTINGS,
    languageModel: null,
    blobs: new PostgresBlobStore(s.database.db),
    search: DEFAULT_SEARCH_PROVIDER_SETTINGS,
    monitoring: { ...DEFAULT_MONITORING_SETTINGS, resolve: systemResolver },
    serviceKey: ephemeralServiceKey(),
  }
}

const statsOf = (ts: TestSystem, key: string, clientId: number) =>
  ts.call<Record<string, number>>('get_aeo_run_stats', { client_id: clientId }, key)

async function cancelReasons(ts: TestSystem, runIds: number[]): Promise<string[]> {
  const reasons: string[] = []
  for (const id of runIds) {
    const cancelled = (await streamEvents(ts, `aeo_run-${id}`)).find((e) => e.type === 'AeoRunCancelled')
    if (cancelled) reasons.push(cancelled.data.reason)
  }
  return reasons
}

t.test('the run canceller', async (t) => {
  const clock = handClock('2026-11-15T12:00:00.000Z')
  const ts = await startTestSystem(t, {
    clock: clock.now,
    aeo: settings,
    runProcessors: true,
    aeoProcessors: { ...DEFAULT_AEO_PROCESSOR_SETTINGS, sweepIntervalMs: 3_600_000 },
  })
  const org = await orgWithKey(ts, 'Acme')
  const { clientId, queryIds } = await clientWithQuestions(ts, org.key, 'Acme Plumbing', 3)
  const [q1, q2, q3] = queryIds as [number, number, number]
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: ['claude', 'openai'] }, org.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, org.key), 12, '3 questions × 2 engines × 2 due')
  const runs = await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, org.key)
  const idsOf = (pred: (r: any) => boolean) => runs.filter(pred).map((r) => r.id)

  await t.test('a deactivated question', async (t) => {
    await ts.call('update_aeo_query', { query_id: q1, active: false }, org.key)
    await eventually(async () => (await statsOf(ts, org.key, clientId)).cancelled === 4, "q1's four runs cancelled")
    t.same(
      await cancelReasons(
        ts,
        idsOf((r) => r.query_id === q1),
      ),
      ['question_inactive', 'question_inactive', 'question_inactive', 'question_inactive'],
    )
  })

  await t.test('a deleted question: its queued runs go, a claimed one stays', async (t) => {
    const got = await ts.call<any[]>('claim_aeo_runs', { agent_id: 'dev', capabilities_json: caps(['openai']), limit: 1 }, org.key)
    t.equal(got.length, 1)
    const claimedId = got[0].id
    const claimedQuery = got[0].query_id
    t.equal(claimedQuery, q2, 'the claim takes the oldest run of the highest priority: q2 (q1 is cancelled)')
    await ts.call('delete_aeo_query', { query_id: q2 }, org.key)
    await eventually(async () => (await statsOf(ts, org.key, clientId)).cancelled === 7, "q2's three queued runs cancelled")
    const after = await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, org.key)
    t.equal(after.find((r) => r.id === claimedId).status, 'claimed', 'the claimed run is left alone')
    t.same(
      await cancelReasons(
        ts,
        idsOf((r) => r.query_id === q2 && r.id !== claimedId),
      ),
      ['question_deleted', 'question_deleted', 'question_deleted'],
    )
  })

  await t.test('a cadence that drops an engine', async (t) => {
    await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: ['claude'] }, org.key)
    await eventually(async () => (await statsOf(ts, org.key, clientId)).cancelled === 9, "q3's openai runs cancelled")
    t.same(
      await cancelReasons(
        ts,
        idsOf((r) => r.query_id === q3 && r.engine === 'openai'),
      ),
      ['cadence_disabled', 'cadence_disabled'],
    )
  })

  await t.test('a paused client, and a late redelivery after it was resumed', async (t) => {
    await ts.call('set_client_status', { client_id: clientId, status: 'paused' }, org.key)
    await eventually(async () => (await statsOf(ts, org.key, clientId)).cancelled === 11, "q3's claude runs cancelled")
    t.same(
      await cancelReasons(
        ts,
        idsOf((r) => r.query_id === q3 && r.engine === 'claude'),
      ),
      ['client_paused', 'client_paused'],
    )
    const paused = (await streamEvents(ts, `client-${clientId}`)).findIndex((e) => e.type === 'ClientStatusChanged')

    await ts.call('set_client_status', { client_id: clientId, status: 'active' }, org.key)
    t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, org.key), 2, 'resumed: q3 × claude queued again')
    const { rows } = await ts.database.pool.query(
      `select * from es_events where stream_name = $1 order by stream_revision offset $2 limit 1`,
      [`client-${clientId}`, paused],
    )
    const recorded = {
      id: rows[0].event_id,
      type: rows[0].type,
      data: rows[0].data,
      metadata: rows[0].metadata,
      stream: rows[0].stream_name,
      revision: BigInt(rows[0].stream_revision),
      position: '0',
      recordedAt: new Date(),
    }
    t.equal(recorded.type, 'ClientStatusChanged')
    t.equal(
      await cancelForEvent(processorDeps(ts), recorded as any),
      0,
      'the pause delivered again cancels nothing: the client is active now',
    )
    t.equal((await statsOf(ts, org.key, clientId)).queued, 2)
  })

  await t.test('a disabled cadence', async (t) => {
    await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: ['claude'], enabled: false }, org.key)
    await eventually(async () => (await statsOf(ts, org.key, clientId)).queued === 0, 'the queue emptied')
    t.same(await statsOf(ts, org.key, clientId), { queued: 0, claimed: 1, running: 0, done: 0, failed: 0, cancelled: 13, total: 14 })
  })

  await t.test('a deleted client', async (t) => {
    const other = await clientWithQuestions(ts, org.key, 'Acme Heating', 1)
    await ts.call('set_aeo_cadence', { client_id: other.clientId, samples_per_month: 2, engines: ['gemini'] }, org.key)
    t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: other.clientId }, org.key), 1)
    await ts.call('set_client_status', { client_id: other.clientId, status: 'deleted' }, org.key)
    await eventually(async () => (await statsOf(ts, org.key, other.clientId)).cancelled === 1, 'cancelled')
    const [run] = await ts.call<any[]>('get_aeo_runs', { client_id: other.clientId }, org.key)
    t.same(await cancelReasons(ts, [run.id]), ['client_deleted'])
  })

  await t.test('its checkpoint is its own', async (t) => {
    const { rows } = await ts.database.pool.query<{ name: string; position: string | null }>(
      'select name, position from processor_checkpoints',
    )
    const mine = rows.find((r) => r.name === CANCELLER_NAME)
    t.ok(mine?.position, 'processor_checkpoints has the canceller at a position')
  })
})

t.test('the sweep and stale claims', async (t) => {
  const clock = handClock('2026-11-10T06:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now, aeo: settings })
  const acme = await orgWithKey(ts, 'Acme')
  const bravo = await orgWithKey(ts, 'Bravo')
  const a = await clientWithQuestions(ts, acme.key, 'Acme Plumbing', 2)
  const b = await clientWithQuestions(ts, bravo.key, 'Bravo Dental', 1)
  const paused = await clientWithQuestions(ts, acme.key, 'Acme Paused', 1)
  await ts.call('set_aeo_cadence', { client_id: a.clientId, samples_per_month: 30, engines: ['claude'] }, acme.key)
  await ts.call('set_aeo_cadence', { client_id: b.clientId, samples_per_month: 30, engines: ['claude', 'gemini'] }, bravo.key)
  await ts.call('set_aeo_cadence', { client_id: paused.clientId, samples_per_month: 30, engines: ['claude'] }, acme.key)
  await ts.call('set_client_status', { client_id: paused.clientId, status: 'paused' }, acme.key)
  const deps = processorDeps(ts)

  t.equal(await sweepDueRuns(deps), 2 * 10 + 2 * 10, 'day 10 of 30 at 30 a month: 10 per pair, every organization, not the paused client')
  t.equal(await sweepDueRuns(deps), 0, 'a second sweep the same day: nothing')
  clock.set('2026-11-11T06:00:00.000Z')
  t.equal(await sweepDueRuns(deps), 4, 'the next day: one more per pair')
  const [queuedRun] = await ts.call<any[]>('get_aeo_runs', { client_id: a.clientId }, acme.key)
  const events = await streamEvents(ts, `aeo_run-${queuedRun.id}`)
  t.equal(events[0]!.data.reason, 'sweep')
  t.equal(events[0]!.metadata.actor.kind, 'system')

  // The scheduler's expiry, run by the processor itself on its interval.
  const got = await ts.call<any[]>('claim_aeo_runs', { agent_id: 'dev', capabilities_json: caps(['claude']), limit: 3 }, acme.key)
  t.equal(got.length, 3)
  await readModelsCaughtUp(ts)
  clock.advance(61_000)
  for (const p of ts.system.processors) if (p.name === 'aeo-claim-expiry') p.start()
  await eventually(async () => (await statsOf(ts, acme.key, a.clientId)).claimed === 0, 'the expiry processor returned the claims')
  for (const r of got) {
    const types = (await streamEvents(ts, `aeo_run-${r.id}`)).map((e) => e.type)
    t.same(types, ['AeoRunQueued', 'AeoRunClaimed', 'AeoRunClaimExpired'], `run ${r.id} is queued again`)
  }
  const again = await ts.call<any[]>('claim_aeo_runs', { agent_id: 'other', capabilities_json: caps(['claude']), limit: 3 }, acme.key)
  t.same(
    again.map((r) => r.attempt),
    [2, 2, 2],
    'claimed again: attempt 2',
  )
})
