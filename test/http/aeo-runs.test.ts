/**
 * AI Visibility cadence, queue, agents and claims through the RPCs: every RPC, its coded errors, and
 * another organization's records answering exactly like missing ones.
 */
import t from 'tap'
import { expireStaleClaims } from '../../commands/aeo/runs.js'
import { systemContext } from '../../commands/command-handler.js'
import { runQueueReads } from '../../projections/aeo/runs/run-queue-reads.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { caps, clientWithQuestions, handClock, recordCapture, runEventTypes } from './aeo-runs-helpers.js'
import { readModelsCaughtUp } from '../support/read-models.js'

const MID_NOVEMBER = '2026-11-15T12:00:00.000Z' // day 15 of 30
// No backoff here: a failed run is claimable again at once (aeo-runs-backoff.test.ts covers the backoff).
const settings = { claimLeaseSeconds: 600, maxAttempts: 2, retryBackoffSeconds: [0], recordRetentionDays: 90, agentOnlineSeconds: 300 }

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const clock = handClock(MID_NOVEMBER)
  const ts = await startTestSystem(t, { clock: clock.now, aeo: settings })
  const acme = await orgWithKey(ts, 'Acme')
  const bravo = await orgWithKey(ts, 'Bravo')
  return { ts, clock, acme, bravo }
}

interface Claimed {
  id: number
  query_id: number
  client_id: number
  engine: string
  geo_state: string | null
  month: string
  attempt: number
  prompt: string
  client_name: string
  lease_expires_at: string
}

/** A claim, then the read models caught up (the claim itself does not wait for them), so the views below show it. */
async function claim(ts: TestSystem, key: string, agent_id: string, capabilities: string, limit = 1): Promise<Claimed[]> {
  const claimed = await ts.call<Claimed[]>('claim_aeo_runs', { agent_id, capabilities_json: capabilities, limit }, key)
  await readModelsCaughtUp(ts)
  return claimed
}

t.test('cadence: enrol, read back, change, and the errors', async (t) => {
  const { ts, acme, bravo } = await setup(t)
  const { clientId } = await clientWithQuestions(ts, acme.key, 'Acme Plumbing', 1)

  t.same(await ts.call('get_aeo_cadence', { client_id: clientId }, acme.key), {}, 'never enrolled: {}')
  const set = await ts.call(
    'set_aeo_cadence',
    { client_id: clientId, samples_per_month: 4, engines: ['Claude', 'chatgpt', 'claude'], geo_state: 'TX' },
    acme.key,
  )
  const expected = { enabled: true, samples_per_month: 4, engines: ['claude', 'chatgpt-web'], geo_state: 'TX' }
  t.same(set, { ...expected, warnings: set.warnings }, 'engines canonical and once each; enabled by default')
  t.same(
    set.warnings.map((w: { engine: string }) => w.engine),
    ['claude', 'chatgpt-web'],
    'no engine key and no agent here: both warned of',
  )
  t.same(await ts.call('get_aeo_cadence', { client_id: clientId }, acme.key), expected)
  t.same(await ts.call('get_aeo_cadence', { client_id: clientId, org_id: acme.orgId }), expected, 'a platform key passes org_id')

  const before = await eventCount(ts)
  await ts.call(
    'set_aeo_cadence',
    { client_id: clientId, samples_per_month: 4, engines: ['claude', 'chatgpt-web'], geo_state: 'TX' },
    acme.key,
  )
  t.equal(await eventCount(ts), before, 'the same cadence again appends nothing')

  const bad = await ts.rpc('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: ['bing'] }, acme.key)
  t.match(expectError(t, bad, 400, 'aeo_engine_unsupported').detail, /engines\.0: unsupported engine "bing"/)
  expectError(
    t,
    await ts.rpc('set_aeo_cadence', { client_id: clientId, samples_per_month: 0, engines: ['claude'] }, acme.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: [] }, acme.key),
    400,
    'validation_failed',
  )

  const missing = await ts.rpc('get_aeo_cadence', { client_id: 999_999 }, bravo.key)
  const foreign = await ts.rpc('get_aeo_cadence', { client_id: clientId }, bravo.key)
  expectError(t, foreign, 404, 'not_found')
  t.same(
    withoutIds(foreign.json(), [clientId]),
    withoutIds(missing.json(), [999_999]),
    'another organization’s client reads like a missing one',
  )
  const foreignSet = await ts.rpc('set_aeo_cadence', { client_id: clientId, samples_per_month: 2, engines: ['claude'] }, bravo.key)
  expectError(t, foreignSet, 404, 'not_found')
  t.same(await ts.call('get_aeo_cadence', { client_id: clientId }, acme.key), expected, 'a refused write changed nothing')

  await ts.call('set_client_status', { client_id: clientId, status: 'deleted' }, acme.key)
  expectError(
    t,
    await ts.rpc('set_aeo_cadence', { client_id: clientId, samples_per_month: 2, engines: ['claude'] }, acme.key),
    409,
    'client_deleted',
  )
  t.same(
    await ts.call(
      'set_aeo_cadence',
      { client_id: clientId, samples_per_month: 4, engines: ['claude', 'chatgpt-web'], geo_state: 'TX', enabled: false },
      acme.key,
    ),
    { ...expected, enabled: false, warnings: [] },
    'a deleted client can still be disabled',
  )
})

t.test('enqueue_due_aeo_runs: spread over the month, never more than due', async (t) => {
  const { ts, clock, acme, bravo } = await setup(t)
  const { clientId, queryIds } = await clientWithQuestions(ts, acme.key, 'Acme Plumbing', 3)
  await ts.call('update_aeo_query', { query_id: queryIds[2], active: false }, acme.key)

  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 0, 'not enrolled: nothing')
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: ['claude', 'openai'] }, acme.key)
  // Day 15 of 30 with 4 a month: 2 due per active question × engine → 2 questions × 2 engines × 2.
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 8)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 0, 'again the same day: nothing more')
  const runs = await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)
  t.equal(runs.length, 8)
  t.same(new Set(runs.map((r) => r.query_id)), new Set(queryIds.slice(0, 2)), 'only active questions')
  t.same(
    runs
      .map((r) => [r.status, r.month, r.geo_state, r.attempts])
      .filter(([s, m, g, a]) => s === 'queued' && m === '2026-11' && g === null && a === 0).length,
    8,
    'queued, this month, no geo, no attempts',
  )
  t.same([...new Set(runs.map((r) => r.sample))].sort(), [1, 2], 'samples 1 and 2 of each pair')
  const first = (await streamEvents(ts, `aeo_run-${runs[0].id}`))[0]!
  t.equal(first.type, 'AeoRunQueued')
  t.equal(first.metadata.org_id, acme.orgId, "the run's events carry the client's organization")

  clock.set('2026-11-30T08:00:00.000Z')
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 8, 'the last day: the rest of the month')
  t.same(await ts.call('get_aeo_run_stats', { client_id: clientId }, acme.key), {
    queued: 16,
    claimed: 0,
    running: 0,
    done: 0,
    failed: 0,
    cancelled: 0,
    total: 16,
  })

  // A cancelled run is made up for; the next month starts again.
  const one = runs.find((r) => r.query_id === queryIds[0] && r.engine === 'claude')!
  t.equal(
    await ts.call('cancel_aeo_runs', { client_id: clientId, query_id: queryIds[0], month: '2026-11' }, acme.key),
    8,
    "a question's queued runs",
  )
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 8, 'cancelled runs are made up for')
  t.ok(one, 'a run of the pair')
  clock.set('2026-12-01T00:00:00.000Z')
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 4, 'December, day 1: one per pair')
  t.same(await ts.call('get_aeo_run_stats', { client_id: clientId, month: '2026-12' }, acme.key), {
    queued: 4,
    claimed: 0,
    running: 0,
    done: 0,
    failed: 0,
    cancelled: 0,
    total: 4,
  })

  // Without client_id: every enrolled client of the organization, with a breakdown.
  const second = await clientWithQuestions(ts, acme.key, 'Acme Heating', 1)
  await ts.call('set_aeo_cadence', { client_id: second.clientId, samples_per_month: 31, engines: ['gemini'] }, acme.key)
  const other = await clientWithQuestions(ts, bravo.key, 'Bravo Dental', 1)
  await ts.call('set_aeo_cadence', { client_id: other.clientId, samples_per_month: 31, engines: ['gemini'] }, bravo.key)
  t.same(await ts.call('enqueue_due_aeo_runs', {}, acme.key), {
    queued: 1,
    clients: [
      { client_id: clientId, queued: 0 },
      { client_id: second.clientId, queued: 1 },
    ],
  })
  t.same(
    await ts.call('enqueue_due_aeo_runs', {}),
    {
      queued: 1,
      clients: [
        { client_id: clientId, queued: 0 },
        { client_id: second.clientId, queued: 0 },
        { client_id: other.clientId, queued: 1 },
      ],
    },
    'a platform key without org_id: every organization',
  )

  // Paused clients and disabled cadences queue nothing.
  clock.set('2026-12-20T00:00:00.000Z')
  await ts.call('set_client_status', { client_id: second.clientId, status: 'paused' }, acme.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: second.clientId }, acme.key), 0, 'paused')
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 4, engines: ['claude', 'openai'], enabled: false }, acme.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 0, 'disabled')

  const foreign = await ts.rpc('enqueue_due_aeo_runs', { client_id: clientId }, bravo.key)
  expectError(t, foreign, 404, 'not_found')
  const missing = await ts.rpc('enqueue_due_aeo_runs', { client_id: 999_999 }, bravo.key)
  t.same(withoutIds(foreign.json(), [clientId]), withoutIds(missing.json(), [999_999]))
})

t.test('claims, completion, failure and the agent views', async (t) => {
  const { ts, clock, acme, bravo } = await setup(t)
  const { clientId, queryIds } = await clientWithQuestions(ts, acme.key, 'Acme Plumbing', 2)
  await ts.call(
    'set_aeo_cadence',
    { client_id: clientId, samples_per_month: 2, engines: ['claude', 'chatgpt-web'], geo_state: 'TX' },
    acme.key,
  )
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 4)
  const bravoClient = await clientWithQuestions(ts, bravo.key, 'Bravo Dental', 1)
  await ts.call('set_aeo_cadence', { client_id: bravoClient.clientId, samples_per_month: 2, engines: ['chatgpt-web'] }, bravo.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: bravoClient.clientId }, bravo.key), 1)

  await t.test('malformed capabilities_json is a 400 naming the field', async (t) => {
    const before = await eventCount(ts)
    t.match(
      expectError(t, await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: '{engines' }, acme.key), 400, 'validation_failed')
        .detail,
      /^capabilities_json: not valid JSON/,
    )
    t.match(
      expectError(
        t,
        await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: caps(['bing']) }, acme.key),
        400,
        'aeo_engine_unsupported',
      ).detail,
      /capabilities_json\.engines\.0: unsupported engine/,
    )
    t.match(
      expectError(
        t,
        await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: '{"geo":"TX"}' }, acme.key),
        400,
        'validation_failed',
      ).detail,
      /capabilities_json\.engines/,
    )
    t.match(
      expectError(
        t,
        await ts.rpc(
          'claim_aeo_runs',
          { agent_id: 'dev', capabilities_json: JSON.stringify({ engines: ['claude'], max_per_day: -1 }) },
          acme.key,
        ),
        400,
        'validation_failed',
      ).detail,
      /capabilities_json\.max_per_day/,
    )
    expectError(
      t,
      await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: caps(['claude']), limit: 0 }, acme.key),
      400,
      'validation_failed',
    )
    expectError(
      t,
      await ts.rpc('claim_aeo_runs', { agent_id: 'has space', capabilities_json: caps(['claude']) }, acme.key),
      400,
      'validation_failed',
    )
    t.equal(await eventCount(ts), before, 'nothing recorded, no agent registered')
  })

  await t.test('engine and geo decide what an agent can claim', async (t) => {
    t.same(await claim(ts, acme.key, 'gem', caps(['gemini'])), [], 'no gemini runs')
    t.same(await claim(ts, acme.key, 'ca', caps(['claude'], 'CA'), 10), [], 'runs in TX; agent in CA')
    const got = await claim(ts, acme.key, 'tx-device', caps(['chatgpt-web'], 'tx'), 10)
    t.equal(got.length, 2, "the organization's two chatgpt-web runs (geo case-insensitive), not Bravo's")
    t.same(
      got.map((r) => r.client_id),
      [clientId, clientId],
    )
    const r = got[0]!
    t.same(Object.keys(r).sort(), [
      'attempt',
      'client_id',
      'client_name',
      'engine',
      'geo_state',
      'id',
      'lease_expires_at',
      'month',
      'prompt',
      'query_id',
    ])
    t.equal(r.engine, 'chatgpt-web')
    t.equal(r.geo_state, 'TX')
    t.equal(r.month, '2026-11')
    t.equal(r.attempt, 1)
    t.equal(r.client_name, 'Acme Plumbing')
    t.match(r.prompt, /^best Acme Plumbing option number \d near me$/)
    t.ok(queryIds.includes(r.query_id))
    t.equal(r.lease_expires_at, new Date(Date.parse(MID_NOVEMBER) + 600_000).toISOString(), 'lease: claimLeaseSeconds from now')
    const anyGeo = await claim(ts, acme.key, 'anywhere', caps(['claude'], 'any'), 1)
    t.equal(anyGeo.length, 1, 'agent geo any claims a TX run')
    t.same(await claim(ts, acme.key, 'tx-device', caps(['chatgpt-web'], 'TX'), 10), [], 'nothing left for chatgpt-web in Acme')
    const platform = await claim(ts, ts.platformKey, 'platform-device', caps(['chatgpt-web']), 10)
    t.same(
      platform.map((p) => p.client_id),
      [bravoClient.clientId],
      "a platform agent claims any organization's runs; Bravo's run has no geo",
    )
  })

  const runs = await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)
  const byAgent = (agent: string) => runs.filter((r) => r.agent_id === agent)
  const [tx1, tx2] = byAgent('tx-device')
  const anyRun = byAgent('anywhere')[0]
  t.equal(tx1.status, 'claimed')

  await t.test('complete_aeo_run: only the claiming agent, with a capture of the run’s client', async (t) => {
    const capture = await recordCapture(ts, {
      orgId: acme.orgId,
      clientId,
      queryId: tx1.query_id,
      engine: 'chatgpt-web',
      month: '2026-11',
      runId: tx1.id,
    })
    const otherClient = await clientWithQuestions(ts, acme.key, 'Acme Other', 1)
    const wrongClient = await recordCapture(ts, {
      orgId: acme.orgId,
      clientId: otherClient.clientId,
      queryId: otherClient.queryIds[0]!,
      engine: 'chatgpt-web',
      month: '2026-11',
      runId: null,
    })
    const bravoCapture = await recordCapture(ts, {
      orgId: bravo.orgId,
      clientId: bravoClient.clientId,
      queryId: bravoClient.queryIds[0]!,
      engine: 'chatgpt-web',
      month: '2026-11',
      runId: null,
    })
    const before = await eventCount(ts)
    expectError(
      t,
      await ts.rpc('complete_aeo_run', { run_id: tx1.id, agent_id: 'anywhere', capture_id: capture }, acme.key),
      409,
      'aeo_run_claimed_by_other',
    )
    expectError(
      t,
      await ts.rpc('complete_aeo_run', { run_id: tx1.id, agent_id: 'tx-device', capture_id: wrongClient }, acme.key),
      409,
      'aeo_capture_other_client',
    )
    expectError(
      t,
      await ts.rpc('complete_aeo_run', { run_id: tx1.id, agent_id: 'tx-device', capture_id: bravoCapture }, acme.key),
      404,
      'not_found',
    )
    expectError(
      t,
      await ts.rpc('complete_aeo_run', { run_id: tx1.id, agent_id: 'tx-device', capture_id: 999_999 }, acme.key),
      404,
      'not_found',
    )
    const queuedRun = runs.find((r) => r.status === 'queued')
    expectError(
      t,
      await ts.rpc('complete_aeo_run', { run_id: queuedRun.id, agent_id: 'tx-device', capture_id: capture }, acme.key),
      409,
      'aeo_run_not_claimed',
    )
    const foreign = await ts.rpc('complete_aeo_run', { run_id: tx1.id, agent_id: 'tx-device', capture_id: capture }, bravo.key)
    const missing = await ts.rpc('complete_aeo_run', { run_id: 999_999, agent_id: 'tx-device', capture_id: capture }, bravo.key)
    expectError(t, foreign, 404, 'not_found')
    t.same(
      withoutIds(foreign.json(), [tx1.id]),
      withoutIds(missing.json(), [999_999]),
      "another organization's run reads like a missing one",
    )
    t.equal(await eventCount(ts), before, 'every refusal changed nothing')

    await ts.call('start_aeo_run', { run_id: tx1.id, agent_id: 'tx-device' }, acme.key)
    t.equal(await ts.call('complete_aeo_run', { run_id: tx1.id, agent_id: 'tx-device', capture_id: capture }, acme.key), null)
    t.equal(
      await ts.call('complete_aeo_run', { run_id: tx1.id, agent_id: 'tx-device', capture_id: capture }, acme.key),
      null,
      'a retried completion is accepted',
    )
    const done = (await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)).find((r) => r.id === tx1.id)
    t.equal(done.status, 'done')
    t.equal(done.capture_id, capture)
    t.same(
      (await streamEvents(ts, `aeo_run-${tx1.id}`)).map((e) => e.type),
      ['AeoRunQueued', 'AeoRunClaimed', 'AeoRunStarted', 'AeoRunCompleted'],
    )
    t.equal(await ts.call('count_aeo_runs_done_today', { agent_id: 'tx-device' }, acme.key), 1)
    t.equal(await ts.call('count_aeo_runs_done_today', { agent_id: 'tx-device' }, bravo.key), 0, "Bravo's tx-device is another agent")
  })

  await t.test('fail_aeo_run: retried while attempts are left, then failed', async (t) => {
    expectError(
      t,
      await ts.rpc('fail_aeo_run', { run_id: tx2.id, agent_id: 'anywhere', error: 'nope' }, acme.key),
      409,
      'aeo_run_claimed_by_other',
    )
    t.same(
      await ts.call('fail_aeo_run', { run_id: tx2.id, agent_id: 'tx-device', error: 'captcha' }, acme.key),
      {
        status: 'queued',
        attempts: 1,
        retry: true,
        retry_at: MID_NOVEMBER,
      },
      'no backoff configured: claimable again now',
    )
    expectError(
      t,
      await ts.rpc('fail_aeo_run', { run_id: tx2.id, agent_id: 'tx-device', error: 'again' }, acme.key),
      409,
      'aeo_run_not_claimed',
    )
    const again = await claim(ts, acme.key, 'tx-device', caps(['chatgpt-web'], 'TX'), 5)
    t.same(
      again.map((r) => [r.id, r.attempt]),
      [[tx2.id, 2]],
      'the retried run comes back, attempt 2',
    )
    t.same(await ts.call('fail_aeo_run', { run_id: tx2.id, agent_id: 'tx-device', error: 'captcha again' }, acme.key), {
      status: 'failed',
      attempts: 2,
      retry: false,
      retry_at: null,
    })
    const failed = (await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)).find((r) => r.id === tx2.id)
    t.equal(failed.status, 'failed')
    t.equal(failed.error, 'captcha again')
  })

  await t.test('stale claims return to the queue', async (t) => {
    clock.advance(600_000 - 1)
    const deps = { ...ts.system.write, db: ts.system.database.db, reads: runQueueReads(ts.system.read), settings }
    t.equal(await expireStaleClaims(deps, systemContext('test')), 0, 'a live lease is kept')
    clock.advance(1)
    t.equal(await expireStaleClaims(deps, systemContext('test')), 2, "the 'anywhere' and platform claims ran out")
    await readModelsCaughtUp(ts)
    const back = (await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)).find((r) => r.id === anyRun.id)
    t.equal(back.status, 'queued')
    t.equal(back.agent_id, null)
    expectError(
      t,
      await ts.rpc('fail_aeo_run', { run_id: anyRun.id, agent_id: 'anywhere', error: 'late' }, acme.key),
      409,
      'aeo_run_not_claimed',
      'no longer claimed',
    )
    const reclaimed = await claim(ts, acme.key, 'second', caps(['claude']), 5)
    t.same(
      reclaimed.map((r) => [r.id, r.attempt]).filter(([id]) => id === anyRun.id),
      [[anyRun.id, 2]],
      'claimable again, attempt 2',
    )
    expectError(
      t,
      await ts.rpc('fail_aeo_run', { run_id: anyRun.id, agent_id: 'anywhere', error: 'late' }, acme.key),
      409,
      'aeo_run_claimed_by_other',
      'the old claimer lost it',
    )
  })

  await t.test('max_per_day', async (t) => {
    const c = await clientWithQuestions(ts, acme.key, 'Acme Limits', 5)
    await ts.call('set_aeo_cadence', { client_id: c.clientId, samples_per_month: 1, engines: ['gemini'] }, acme.key)
    t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: c.clientId }, acme.key), 5)
    t.equal((await claim(ts, acme.key, 'limited', caps(['gemini'], 'any', 3), 2)).length, 2)
    t.equal((await claim(ts, acme.key, 'limited', caps(['gemini'], 'any', 3), 5)).length, 1, 'one left today')
    t.equal((await claim(ts, acme.key, 'limited', caps(['gemini'], 'any', 3), 5)).length, 0, 'none left today')
    clock.advance(24 * 3600 * 1000 + 1)
    t.equal((await claim(ts, acme.key, 'limited', caps(['gemini'], 'any', 3), 5)).length, 2, 'a day later: the rest')
  })

  await t.test('get_aeo_agents, get_aeo_run_stats, get_aeo_queue_overview', async (t) => {
    const agents = await ts.call<any[]>('get_aeo_agents', {}, acme.key)
    t.same(
      agents.map((a) => [a.agent_id, a.org_id]),
      [
        ['anywhere', acme.orgId],
        ['ca', acme.orgId],
        ['gem', acme.orgId],
        ['limited', acme.orgId],
        ['second', acme.orgId],
        ['tx-device', acme.orgId],
        ['platform-device', null],
      ],
      "the organization's agents, then the platform's",
    )
    const tx = agents.find((a) => a.agent_id === 'tx-device')
    t.same(tx.capabilities, { engines: ['chatgpt-web'], geo: 'TX', max_per_day: null })
    t.equal(tx.online, false, 'last seen more than agentOnlineSeconds ago')
    t.same(tx.runs, { claimed: 0, running: 0, done: 1, failed: 1, done_24h: 0 })
    const limited = agents.find((a) => a.agent_id === 'limited')
    t.equal(limited.online, true)
    t.equal(limited.runs.claimed, 5)
    t.ok(limited.current_run && limited.current_run.status === 'claimed', 'its current run')
    const platformView = agents.find((a) => a.agent_id === 'platform-device')
    t.same(
      platformView.runs,
      { claimed: 0, running: 0, done: 0, failed: 0, done_24h: 0 },
      "a platform agent's counts in Acme: none of Acme's runs",
    )
    t.same(
      (await ts.call<any[]>('get_aeo_agents', {}, bravo.key)).map((a) => a.agent_id),
      ['platform-device'],
      "Bravo sees none of Acme's agents",
    )

    const stats = await ts.call('get_aeo_run_stats', {}, acme.key)
    t.same(stats, { queued: 0, claimed: 7, running: 0, done: 1, failed: 1, cancelled: 0, total: 9 })
    const bravoStats = await ts.call('get_aeo_run_stats', {}, bravo.key)
    t.equal(bravoStats.total, 1, "Bravo's own")
    const foreign = await ts.rpc('get_aeo_run_stats', { client_id: clientId }, bravo.key)
    expectError(t, foreign, 404, 'not_found')
    expectError(t, await ts.rpc('get_aeo_runs', { client_id: clientId }, bravo.key), 404, 'not_found')

    const overview = await ts.call<any>('get_aeo_queue_overview', {}, acme.key)
    t.same(overview.stats, stats)
    t.same(
      overview.clients.map((c: any) => c.name),
      ['Acme Plumbing', 'Acme Limits'],
    )
    t.ok(
      overview.engines.find((e: any) => e.engine === 'gemini'),
      'by engine',
    )
    t.type(overview.agents_online, 'number')
    const all = await ts.call<any>('get_aeo_queue_overview', {})
    t.equal(all.stats.total, 10, 'a platform key without org_id: every organization')
  })

  await t.test('every claim is in the log once per claim', async (t) => {
    for (const [id, types] of await runEventTypes(ts)) {
      const claims = types.filter((x) => x === 'AeoRunClaimed').length
      const returns = types.filter((x) => x === 'AeoRunClaimExpired' || x === 'AeoRunFailed').length
      t.ok(claims <= returns + 1, `run ${id}: ${types.join(' → ')}`)
    }
  })
})

t.test('capabilities_json may be the object itself, validated exactly like the JSON string', async (t) => {
  const { ts, acme } = await setup(t)
  const { clientId } = await clientWithQuestions(ts, acme.key, 'Acme Plumbing', 2)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 1, engines: ['claude'], geo_state: 'TX' }, acme.key)
  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key), 2)

  const asObject = await ts.call<Claimed[]>(
    'claim_aeo_runs',
    { agent_id: 'obj', capabilities_json: { engines: ['Claude'], geo: 'TX', max_per_day: 10 }, limit: 1 },
    acme.key,
  )
  t.equal(asObject.length, 1, 'an object claims')
  t.equal(asObject[0]!.engine, 'claude')
  const asString = await ts.call<Claimed[]>(
    'claim_aeo_runs',
    { agent_id: 'str', capabilities_json: caps(['claude'], 'TX'), limit: 1 },
    acme.key,
  )
  t.equal(asString.length, 1, 'a string still claims')

  // The same refusals, with the same codes and field names, for an object as for its JSON text.
  const refusals: [unknown, number, string, RegExp][] = [
    [{ engines: ['bing'] }, 400, 'aeo_engine_unsupported', /capabilities_json\.engines\.0: unsupported engine/],
    [{ geo: 'TX' }, 400, 'validation_failed', /capabilities_json\.engines/],
    [{ engines: ['claude'], max_per_day: -1 }, 400, 'validation_failed', /capabilities_json\.max_per_day/],
    [{ engines: ['claude'], colour: 'red' }, 400, 'validation_failed', /^capabilities_json: Unrecognized key: "colour"/],
  ]
  for (const [value, status, code, detail] of refusals) {
    const object = expectError(
      t,
      await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: value }, acme.key),
      status,
      code,
      `object ${JSON.stringify(value)}`,
    )
    const text = expectError(
      t,
      await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: JSON.stringify(value) }, acme.key),
      status,
      code,
      `string ${JSON.stringify(value)}`,
    )
    t.match(object.detail, detail)
    t.equal(object.detail, text.detail, 'the same detail either way')
  }
  for (const value of [['claude'], 42, null]) {
    const refused = expectError(
      t,
      await ts.rpc('claim_aeo_runs', { agent_id: 'dev', capabilities_json: value }, acme.key),
      400,
      'validation_failed',
      `not an object: ${JSON.stringify(value)}`,
    )
    t.match(refused.detail, /^capabilities_json: expected an object/)
  }

  // The OpenAPI document (and so describe_rpc and the MCP tool, which convert the same schema) shows both forms.
  const openapi = (await ts.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  const params = openapi.paths['/api/v1/rpc/claim_aeo_runs'].post.requestBody.content['application/json'].schema
  const forms = params.properties.capabilities_json.anyOf as { type: string; properties?: Record<string, unknown>; required?: string[] }[]
  t.same(
    forms.map((f) => f.type),
    ['string', 'object'],
    'a JSON string or an object',
  )
  t.same(Object.keys(forms[1]!.properties ?? {}).sort(), ['engines', 'geo', 'max_per_day'], "the object's fields")
  t.same(forms[1]!.required, ['engines'])
})
