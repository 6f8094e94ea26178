/**
 * ingest_aeo_capture with a run_id: the run must be the same client's, question's and engine's. A wrong
 * run is refused with a coded error before anything is written; another organization's run answers like a
 * missing one. Deleting a question decides "has captures" from the log, not only from the read model.
 */
import t from 'tap'
import { deleteClientQuestions, deleteQuestion } from '../../commands/aeo/questions.js'
import { systemContext } from '../../commands/command-handler.js'
import { startTestSystem } from '../support/system.js'
import { eventCount, expectError, orgWithKey, withoutIds } from './helpers.js'
import { caps, clientWithQuestions, handClock } from './aeo-runs-helpers.js'
import { readModelsAt } from '../support/read-models.js'

const settings = { claimLeaseSeconds: 600, maxAttempts: 3, retryBackoffSeconds: [0], recordRetentionDays: 90, agentOnlineSeconds: 300 }

t.test('a capture names only a run of its own client, question and engine', async (t) => {
  const clock = handClock('2026-11-15T12:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now, aeo: settings })
  const acme = await orgWithKey(ts, 'Acme')
  const bravo = await orgWithKey(ts, 'Bravo')
  const one = await clientWithQuestions(ts, acme.key, 'Acme One', 2)
  const two = await clientWithQuestions(ts, acme.key, 'Acme Two', 1)
  const foreign = await clientWithQuestions(ts, bravo.key, 'Bravo One', 1)
  for (const [c, key] of [
    [one, acme.key],
    [two, acme.key],
    [foreign, bravo.key],
  ] as const) {
    await ts.call('set_aeo_cadence', { client_id: c.clientId, samples_per_month: 1, engines: ['claude'] }, key)
    await ts.call('enqueue_due_aeo_runs', { client_id: c.clientId }, key)
  }
  const runs = await ts.call<any[]>('get_aeo_runs', { client_id: one.clientId }, acme.key)
  const run = runs.find((r) => r.query_id === one.queryIds[0])!
  const otherClientRun = (await ts.call<any[]>('get_aeo_runs', { client_id: two.clientId }, acme.key))[0]!
  const bravoRun = (await ts.call<any[]>('get_aeo_runs', { client_id: foreign.clientId }, bravo.key))[0]!

  const capture = (over: Record<string, unknown>) => ({
    client_id: one.clientId,
    query_id: one.queryIds[0],
    engine: 'claude',
    answer_text: 'Acme One is a good choice.',
    citations: [],
    ...over,
  })

  await t.test('wrong runs are refused, and nothing is written', async (t) => {
    const before = await eventCount(ts)
    expectError(
      t,
      await ts.rpc('ingest_aeo_capture', capture({ run_id: otherClientRun.id }), acme.key),
      409,
      'aeo_capture_other_client',
      "another client's run",
    )
    expectError(
      t,
      await ts.rpc('ingest_aeo_capture', capture({ run_id: run.id, query_id: one.queryIds[1] }), acme.key),
      409,
      'aeo_capture_run_mismatch',
      'another question',
    )
    expectError(
      t,
      await ts.rpc('ingest_aeo_capture', capture({ run_id: run.id, engine: 'gemini' }), acme.key),
      409,
      'aeo_capture_run_mismatch',
      'another engine',
    )
    const missing = await ts.rpc('ingest_aeo_capture', capture({ run_id: 999_999 }), acme.key)
    const foreignRun = await ts.rpc('ingest_aeo_capture', capture({ run_id: bravoRun.id }), acme.key)
    expectError(t, missing, 404, 'not_found', 'a missing run')
    expectError(t, foreignRun, 404, 'not_found', "another organization's run")
    t.same(withoutIds(foreignRun.json(), [bravoRun.id]), withoutIds(missing.json(), [999_999]), 'answered exactly like a missing one')
    t.equal(await eventCount(ts), before, 'no event appended')
    const { rows } = await ts.database.pool.query('select count(*)::int as n from aeo_capture_records')
    t.equal(rows[0].n, 0, 'no raw record stored')
  })

  await t.test('the right run is accepted, and the claiming agent completes it with the capture', async (t) => {
    const response = await ts.rpc('claim_aeo_runs', { agent_id: 'device', capabilities_json: caps(['claude']), limit: 1 }, acme.key)
    t.equal(response.statusCode, 200)
    t.equal(response.headers['x-read-your-writes'], 'skipped', 'a claim answers without waiting for the read models')
    const [claimed] = JSON.parse(response.body).result
    t.equal(claimed.id, run.id, 'the oldest run of the highest priority first')
    const captureId = await ts.call<number>('ingest_aeo_capture', capture({ run_id: run.id }), acme.key)
    t.match(await ts.call('get_aeo_capture', { capture_id: captureId }, acme.key), {
      run_id: run.id,
      query_id: one.queryIds[0],
      engine: 'claude',
    })
    t.equal(await ts.call('complete_aeo_run', { run_id: run.id, agent_id: 'device', capture_id: captureId }, acme.key), null)
  })

  await t.test('delete decides "has captures" from the log, even when the read model has not shown the capture yet', async (t) => {
    // `captured: false` is what a lagging captures read model says; the capture of queryIds[0] is in the log.
    const [captured, uncaptured] = one.queryIds as [number, number]
    const outcome = await deleteQuestion(ts.system.write, systemContext('test'), {
      callerOrgId: acme.orgId,
      clientId: one.clientId,
      queryId: captured,
      captured: false,
    })
    t.equal(outcome.deleted, false, 'deactivated, not deleted')
    await readModelsAt(ts, outcome.position)
    t.match(await ts.call('get_aeo_query', { query_id: captured }, acme.key), { id: captured, active: false })
    const bulk = await deleteClientQuestions(ts.system.write, systemContext('test'), {
      callerOrgId: acme.orgId,
      clientId: one.clientId,
      keep: [],
      keepCaptured: true,
    })
    t.equal(bulk.deleted, 1, 'only the uncaptured question goes')
    await readModelsAt(ts, bulk.position)
    expectError(t, await ts.rpc('get_aeo_query', { query_id: uncaptured }, acme.key), 404, 'not_found')
    t.match(await ts.call('get_aeo_query', { query_id: captured }, acme.key), { id: captured })
  })
})
