/**
 * Cancelling a running export_org through the job API (issue 6: "a cancel reaches the running handler and
 * it stops"): an organization big enough that the export takes seconds, cancelled while it is writing
 * the big table (so the abort lands between cursor pages); the job ends cancelled within a heartbeat or two, and no file and no export record is left.
 */
import t from 'tap'
import { sql } from 'kysely'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from './helpers.js'
import { cancelJob, postJob, QUICK_JOBS, waitForJob } from './jobs-helpers.js'

t.test('a cancel stops a running export between pages and leaves nothing behind', async (t) => {
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS })
  const org = await orgWithKey(ts, 'Big Agency')
  const clientId = await ts.call<number>('add_client', clientPayload('Big Plumbing'), org.key)
  // 300,000 keyword rows straight into the read model (the export reads nothing else): several seconds of work.
  await sql`
    insert into ${sql.id(LIVE_SCHEMA, 'keywords')} (id, client_id, org_id, keyword, keyword_key, source, status, created_at, updated_at)
    select 7000000 + g, ${clientId}, ${org.orgId}, 'plumber near ' || g, 'plumber near ' || g, 'manual', 'active', now(), now()
    from generate_series(1, 300000) g`.execute(ts.system.database.db)

  const accepted = await postJob(ts.app, org.key, { kind: 'export_org' })
  t.equal(accepted.statusCode, 202)
  const jobId = accepted.json().job_id
  const writing = await waitForJob(ts.app, org.key, jobId, (j) => j.status !== 'queued' && (j.status !== 'running' || j.progress?.message === 'tables/keywords'), 60_000)
  t.equal(writing.status, 'running', `it is writing ${writing.progress?.message}`)
  const cancel = await cancelJob(ts.app, org.key, jobId)
  t.equal(cancel.statusCode, 202, 'asked to stop')
  const ended = await waitForJob(ts.app, org.key, jobId, (j) => j.status !== 'running', 30_000)
  t.equal(ended.status, 'cancelled', ended.status === 'done' ? 'the export finished before the cancel reached it (machine too fast for this test)' : 'cancelled')
  const { rows } = await ts.database.pool.query(`select count(*)::int as n from files where path like 'exports/%'`)
  t.equal(rows[0].n, 0, 'no file stored')
  t.same(await ts.call('list_org_exports', {}, org.key), [], 'no export listed')
})
