/**
 * Cancelling a running export_org through the job API ("a cancel reaches the running handler and
 * it stops"). The real handler runs in the real job runner; the test only holds it at the start of the
 * keywords table (its progress call waits there) until the cancel has reached it, so the stop lands in the
 * middle of writing a table whatever the machine's speed. Its between-tables check is made to answer
 * "no cancel" so that it is the abort signal, checked between pages, that stops it. The job ends
 * cancelled, and no file and no export record is left.
 */
import t from 'tap'
import { sql } from 'kysely'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import type { JobHandler } from '../../processors/jobs/handler.js'
import { exportOrgHandler } from '../../processors/jobs/kinds/export-org.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from './helpers.js'
import { cancelJob, postJob, QUICK_JOBS, waitForJob } from './jobs-helpers.js'

t.test('a cancel stops a running export mid-table and leaves nothing behind', async (t) => {
  let reached: () => void = () => {}
  const atKeywords = new Promise<void>((resolve) => (reached = resolve))
  const held: JobHandler<'export_org'> = (ctx) =>
    exportOrgHandler({
      ...ctx,
      cancelRequested: async () => false,
      async progress(done, total, message) {
        await ctx.progress(done, total, message)
        if (message !== 'tables/keywords') return
        reached()
        await new Promise<void>((resolve) =>
          ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
        )
      },
    })
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, jobHandlers: { export_org: held } })
  const org = await orgWithKey(ts, 'Big Agency')
  const clientId = await ts.call<number>('add_client', clientPayload('Big Plumbing'), org.key)
  await sql`
    insert into ${sql.id(LIVE_SCHEMA, 'keywords')} (id, client_id, org_id, keyword, keyword_key, source, status, created_at, updated_at)
    select 7000000 + g, ${clientId}, ${org.orgId}, 'plumber near ' || g, 'plumber near ' || g, 'manual', 'active', now(), now()
    from generate_series(1, 2000) g`.execute(ts.system.database.db)

  const accepted = await postJob(ts.app, org.key, { kind: 'export_org' })
  t.equal(accepted.statusCode, 202)
  const jobId = accepted.json().job_id
  await atKeywords
  const cancel = await cancelJob(ts.app, org.key, jobId)
  t.equal(cancel.statusCode, 202, 'asked to stop while running')
  const ended = await waitForJob(ts.app, org.key, jobId, (j) => j.status !== 'running', 30_000)
  t.equal(ended.status, 'cancelled')
  const { rows } = await ts.database.pool.query(`select count(*)::int as n from files where path like 'exports/%'`)
  t.equal(rows[0].n, 0, 'no file stored')
  t.same(await ts.call('list_org_exports', {}, org.key), [], 'no export listed')
  const events = await ts.database.pool.query(`select count(*)::int as n from es_events where stream_name like 'org_export-%'`)
  t.equal(events.rows[0].n, 0, 'no export recorded')
})
