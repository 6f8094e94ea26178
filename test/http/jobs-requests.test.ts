/**
 * POST /api/v1/jobs's checks (spec Authentication 4 and 8, Errors, Limits): one active job per
 * client under concurrency on two API processes, 400s naming the field, 403 for read-only and sandbox keys
 * (the sandbox's export_org once per 10 minutes), 503 while writes are off, Idempotency-Key replays.
 */
import t from 'tap'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { setWritesState } from '../../read-api/platform/writes-switch.js'
import { startTestSystem } from '../support/system.js'
import { eventCount, expectError, keyFor, orgWithKey } from './helpers.js'
import { aClient, cancelJob, ControlledHandler, getJob, postJob, testHandlers } from './jobs-helpers.js'

t.test('20 concurrent requests for one client on two API processes: exactly one 202, the rest 409 naming it', async (t) => {
  const ts = await startTestSystem(t, { jobHandlers: testHandlers(new ControlledHandler()) })
  const second = await ts.system.buildApp()
  t.teardown(() => second.close())
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await aClient(ts, org.key)
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      postJob(i % 2 === 0 ? ts.app : second, org.key, { kind: 'ad_copy', client_id: clientId, payload: { areas: [`Area ${i}`] } }),
    ),
  )
  const accepted = answers.filter((a) => a.statusCode === 202)
  t.equal(accepted.length, 1, 'exactly one 202')
  const jobId = accepted[0]!.json().job_id
  for (const refused of answers.filter((a) => a.statusCode !== 202)) {
    const body = expectError(t, refused, 409, 'job_already_running')
    t.match(body.detail, `/api/v1/jobs/${jobId}`, 'detail names the active job to poll')
    t.match(body.hint, /[Pp]oll/)
  }
  const { rows } = await ts.database.pool.query<{ n: number }>(`select count(*)::int as n from es_events where type = 'JobRequested'`)
  t.equal(rows[0]!.n, 1, 'one job recorded')
  // Another client of the same organization is not held up, nor is an organization-level job.
  t.equal((await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: await aClient(ts, org.key, 'Other Co') })).statusCode, 202)
  t.equal((await postJob(ts.app, org.key, { kind: 'export_org' })).statusCode, 202)
  expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'export_org' }),
    409,
    'job_already_running',
    'one export per organization at a time',
  )
})

t.test('400s name the field; a client of another organization is 404', async (t) => {
  const ts = await startTestSystem(t, { jobHandlers: testHandlers(new ControlledHandler()) })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await aClient(ts, org.key)
  const before = await eventCount(ts)

  const unknown = expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'teleport', client_id: clientId }),
    400,
    'validation_failed',
    'unknown kind',
  )
  t.match(unknown.detail, /^kind: /)
  t.match(unknown.detail, /export_org/, 'lists the kinds')
  const specified = expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'blog_pipeline', client_id: clientId }),
    400,
    'job_kind_unavailable',
    'specified, not run here',
  )
  t.match(specified.detail, /ad_copy, export_org/, 'names the kinds available')
  expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'keyword_generation', client_id: clientId }),
    400,
    'job_kind_unavailable',
    'a kind without a handler',
  )
  t.match(expectError(t, await postJob(ts.app, org.key, { kind: 'ad_copy' }), 400, 'validation_failed').detail, /^client_id: required/)
  t.match(
    expectError(
      t,
      await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId, payload: { services: 'plumbing' } }),
      400,
      'validation_failed',
    ).detail,
    /^payload\.services: /,
  )
  t.match(
    expectError(
      t,
      await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId, payload: { colour: 'red' } }),
      400,
      'validation_failed',
    ).detail,
    /^payload: .*colour/,
  )
  t.match(
    expectError(t, await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId, flavour: 1 }), 400, 'validation_failed').detail,
    /flavour/,
  )
  t.match(
    expectError(t, await postJob(ts.app, org.key, { kind: 'export_org', client_id: clientId }), 400, 'validation_failed').detail,
    /^client_id: /,
  )
  expectError(t, await postJob(ts.app, org.key, []), 400, 'validation_failed', 'an array body')
  const foreign = expectError(
    t,
    await postJob(ts.app, other.key, { kind: 'ad_copy', client_id: clientId }),
    404,
    'not_found',
    "another organization's client",
  )
  const missing = expectError(
    t,
    await postJob(ts.app, other.key, { kind: 'ad_copy', client_id: clientId + 1000 }),
    404,
    'not_found',
    'a missing client',
  )
  t.equal(foreign.detail?.replace(String(clientId), '<id>'), missing.detail?.replace(String(clientId + 1000), '<id>'), 'the same answer')
  expectError(
    t,
    await postJob(ts.app, org.key, { kind: 'export_org', org_id: other.orgId }),
    404,
    'not_found',
    'an organization key naming another organization',
  )
  expectError(
    t,
    await postJob(ts.app, ts.platformKey, { kind: 'export_org' }),
    400,
    'org_id_required',
    'a platform key must name the organization',
  )
  t.equal(await eventCount(ts), before, 'nothing was recorded')

  const byPlatform = await postJob(ts.app, ts.platformKey, { kind: 'export_org', org_id: org.orgId })
  t.equal(byPlatform.statusCode, 202, 'a platform key exports the organization it names')
  t.equal((await getJob(ts.app, org.key, byPlatform.json().job_id)).json().client_id, null)
  t.equal(
    (await postJob(ts.app, ts.platformKey, { kind: 'ad_copy', client_id: clientId })).statusCode,
    202,
    'a platform key reaches any client',
  )
})

t.test('read-only keys and keys without jobs are refused with a hint; writes off is 503', async (t) => {
  const ts = await startTestSystem(t, { jobHandlers: testHandlers(new ControlledHandler()) })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await aClient(ts, org.key)
  const reader = await keyFor(ts, org.orgId, 'read')
  const noJobs = await keyFor(ts, org.orgId, 'read,write')
  const body = { kind: 'ad_copy', client_id: clientId }
  const readOnly = expectError(t, await postJob(ts.app, reader.key, body), 403, 'insufficient_scope', 'read-only key')
  t.match(readOnly.hint, /read-only/)
  t.match(expectError(t, await postJob(ts.app, noJobs.key, body), 403, 'insufficient_scope', 'no jobs scope').detail, /jobs/)
  const { job_id: jobId } = (await postJob(ts.app, org.key, body)).json()
  t.equal((await getJob(ts.app, reader.key, jobId)).statusCode, 200, 'a read-only key may poll')
  expectError(t, await cancelJob(ts.app, reader.key, jobId), 403, 'insufficient_scope', 'a read-only key may not cancel')

  await setWritesState(ts.system.database.db, false, { reason: 'maintenance', changedBy: 'test' })
  ts.app.writesSwitch.invalidate()
  const off = await postJob(ts.app, org.key, { kind: 'export_org' })
  expectError(t, off, 503, 'writes_disabled', 'writes off')
  t.equal(off.headers['retry-after'], '30')
  expectError(t, await cancelJob(ts.app, org.key, jobId), 503, 'writes_disabled', 'cancel while writes are off')
  t.equal((await getJob(ts.app, org.key, jobId)).statusCode, 200, 'reads keep working')
  await setWritesState(ts.system.database.db, true, { changedBy: 'test' })
  ts.app.writesSwitch.invalidate()
  t.equal((await postJob(ts.app, org.key, { kind: 'export_org' })).statusCode, 202, 'writes on again')
})

t.test('Idempotency-Key: a retried request replays the first answer and starts nothing', async (t) => {
  const ts = await startTestSystem(t, { jobHandlers: testHandlers(new ControlledHandler()) })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await aClient(ts, org.key)
  const body = { kind: 'ad_copy', client_id: clientId }
  const first = await postJob(ts.app, org.key, body, { 'idempotency-key': 'ad-copy-1' })
  t.equal(first.statusCode, 202)
  const replay = await postJob(ts.app, org.key, body, { 'idempotency-key': 'ad-copy-1' })
  t.equal(replay.statusCode, 202, 'the same 202, not a 409')
  t.equal(replay.headers['idempotency-replayed'], 'true')
  t.same(replay.json(), first.json())
  expectError(
    t,
    await postJob(ts.app, org.key, { ...body, payload: { areas: ['Elsewhere'] } }, { 'idempotency-key': 'ad-copy-1' }),
    409,
    'idempotency_key_reused',
  )
  expectError(
    t,
    await postJob(ts.app, org.key, body, { 'idempotency-key': 'ad-copy-2' }),
    409,
    'job_already_running',
    'a new key is a new request',
  )
})

t.test('the sandbox key: every kind but export_org is 403; export_org once per 10 minutes (429 Retry-After)', async (t) => {
  let now = new Date('2026-11-23T12:00:00.000Z')
  const ts = await startTestSystem(t, { clock: () => now, jobHandlers: testHandlers(new ControlledHandler()) })
  const seeded = await resetSandbox({
    write: ts.system.write,
    read: ts.system.read,
    db: ts.system.database.db,
    watermark: ts.system.watermark,
    log: ts.system.log,
  })
  const refused = expectError(
    t,
    await postJob(ts.app, SANDBOX_KEY, { kind: 'ad_copy', client_id: seeded.clientId }),
    403,
    'sandbox_read_only',
    'ad_copy',
  )
  t.ok(refused.hint, 'with a hint')
  const first = await postJob(ts.app, SANDBOX_KEY, { kind: 'export_org' })
  t.equal(first.statusCode, 202, first.body)
  const jobId = first.json().job_id
  t.equal((await getJob(ts.app, SANDBOX_KEY, jobId)).statusCode, 200, 'the sandbox key polls its export')
  expectError(t, await cancelJob(ts.app, SANDBOX_KEY, jobId), 403, 'sandbox_read_only', 'the sandbox cannot cancel')
  t.equal((await cancelJob(ts.app, ts.platformKey, jobId)).statusCode, 200, 'the platform cancels it (the slot is free)')
  now = new Date(now.getTime() + 4 * 60_000)
  const soon = expectError(
    t,
    await postJob(ts.app, SANDBOX_KEY, { kind: 'export_org' }),
    429,
    'rate_limited',
    'a second export 4 minutes later',
  )
  t.match(soon.detail, /10 minutes/)
  t.equal((await postJob(ts.app, SANDBOX_KEY, { kind: 'export_org' })).headers['retry-after'], '360', 'Retry-After: the 6 minutes left')
  now = new Date(now.getTime() + 6 * 60_000)
  t.equal((await postJob(ts.app, SANDBOX_KEY, { kind: 'export_org' })).statusCode, 202, '10 minutes after the first: allowed')
})
