/**
 * Group-targeted jobs through POST /api/v1/jobs (bulk_strategist, with a test handler): group_id required
 * and client_id refused for it, group_id refused for every other kind, the group the caller's (another
 * organization's answers like a missing one), live and with an active client; one active job per group
 * (409 job_already_running), beside a job for one of its clients; the handler reads job.groupId.
 */
import t from 'tap'
import type { JobHandler } from '../../processors/jobs/handler.js'
import { startTestSystem } from '../support/system.js'
import { ControlledHandler, postJob, QUICK_JOBS, testHandlers, waitForJob } from './jobs-helpers.js'
import { clientPayload, eventCount, expectError, orgWithKey, withoutIds } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const group = new ControlledHandler()
  group.outcome = (ctx) => ({ group_id: ctx.job.groupId, client_id: ctx.job.clientId })
  const client = new ControlledHandler()
  const ts = await startTestSystem(t, {
    runProcessors: true,
    jobs: QUICK_JOBS,
    jobHandlers: { ...testHandlers(client), bulk_strategist: group.handler as JobHandler<'bulk_strategist'> },
  })
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const a = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const b = await ts.call<number>('add_client', clientPayload('Bolt Electric'), org.key)
  const groupId = (await ts.call<{ id: number }>('create_client_group', { name: 'Texas', client_ids: [a, b] }, org.key)).id
  return { ts, org, other, a, b, groupId, group, client }
}

t.test('one active job per group; the handler reads job.groupId', async (t) => {
  const { ts, org, a, groupId, group, client } = await setup(t)
  const first = await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId, payload: { month: '2026-11' } })
  t.equal(first.statusCode, 202, first.body)
  const jobId = first.json().job_id as number
  const record = await waitForJob(ts.app, org.key, jobId, (job) => job.status === 'queued' || job.status === 'running')
  t.match(record, { kind: 'bulk_strategist', group_id: groupId, client_id: null })

  const second = expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId }),
    409,
    'job_already_running',
    'a second job for the same group',
  )
  t.match(second.detail, new RegExp(`job ${jobId} is still active`))

  // The group's slot is its own: a job for one of its clients is not held back by it.
  const clientJob = await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: a })
  t.equal(clientJob.statusCode, 202, 'a member client can run its own job meanwhile')

  group.release()
  client.release()
  const done = await waitForJob(ts.app, org.key, jobId, 'done')
  t.same(done.result, { group_id: groupId, client_id: null }, 'the handler saw the group and no client')
  await waitForJob(ts.app, org.key, clientJob.json().job_id, 'done')
  const next = await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId })
  t.equal(next.statusCode, 202, 'the slot is free once the job is done')
  await waitForJob(ts.app, org.key, next.json().job_id, 'done')
})

t.test('group_id and client_id: which kind takes which', async (t) => {
  const { ts, org, a, groupId } = await setup(t)
  const before = await eventCount(ts)
  t.match(
    expectError(t, await postJob(ts.app, org.key, { kind: 'bulk_strategist' }), 400, 'validation_failed', 'no group_id').detail,
    /^group_id: required for bulk_strategist/,
  )
  t.match(
    expectError(
      t,
      await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId, client_id: a }),
      400,
      'validation_failed',
      'client_id with a group kind',
    ).detail,
    /^client_id: bulk_strategist is about a group/,
  )
  t.match(
    expectError(t, await postJob(ts.app, org.key, { kind: 'bulk_strategist', client_id: a }), 400, 'validation_failed', 'client_id alone')
      .detail,
    /^group_id: required/,
  )
  for (const body of [
    { kind: 'ad_copy', client_id: a, group_id: groupId },
    { kind: 'export_org', group_id: groupId },
  ]) {
    t.match(
      expectError(t, await postJob(ts.app, org.key, body), 400, 'validation_failed', `${body.kind} with group_id`).detail,
      new RegExp(`^group_id: only bulk_strategist takes a group; ${body.kind} does not`),
    )
  }
  expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId, payload: { month: 'November' } }),
    400,
    'validation_failed',
    'the payload is checked',
  )
  t.equal(await eventCount(ts), before, 'nothing was recorded')
})

t.test("the group must be the caller's, live and with an active client", async (t) => {
  const { ts, org, other, a, b, groupId } = await setup(t)
  const theirClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  const theirs = (await ts.call<{ id: number }>('create_client_group', { name: 'Theirs', client_ids: [theirClient] }, other.key)).id
  const missing = 987_654
  const foreign = expectError(t, await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: theirs }), 404, 'not_found', 'foreign')
  const absent = expectError(t, await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: missing }), 404, 'not_found', 'missing')
  t.same(withoutIds(foreign, [theirs]), withoutIds(absent, [missing]), 'a foreign group reads as missing')
  t.equal(
    (await postJob(ts.app, ts.platformKey, { kind: 'bulk_strategist', group_id: theirs })).statusCode,
    202,
    'a platform key reaches any organization’s group',
  )

  // No active client: every member paused or deleted, or none at all.
  await ts.call('set_client_status', { client_id: a, status: 'paused' }, org.key)
  await ts.call('set_client_status', { client_id: b, status: 'deleted' }, org.key)
  expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId }),
    409,
    'client_group_empty',
    'no active member',
  )
  const empty = (await ts.call<{ id: number }>('create_client_group', { name: 'Empty' }, org.key)).id
  expectError(t, await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: empty }), 409, 'client_group_empty', 'no member')

  await ts.call('set_client_status', { client_id: a, status: 'active' }, org.key)
  await ts.call('delete_client_group', { group_id: groupId }, org.key)
  expectError(t, await postJob(ts.app, org.key, { kind: 'bulk_strategist', group_id: groupId }), 409, 'client_group_deleted', 'deleted')
})
