/**
 * Push failures through the commands the publisher calls (recordPushFailure, resolvePushFailures) and the
 * RPCs: the unresolved lists and counts (per organization, every organization for a platform key, per client,
 * per category), auto resolution per client and operation (nothing unresolved: no event), resolving one by
 * hand, get_push_failures with and without resolved ones, validation, and another organization's ids
 * answering like missing ones.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { recordPushFailure, type PushFailureInput } from '../../commands/publishing/push-failures.js'
import { startTestSystem } from '../support/system.js'
import { handClock } from './aeo-runs-helpers.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { readModelsAt } from '../support/read-models.js'

const START = '2026-11-27T09:00:00.000Z'
const at = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString()

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const clock = handClock(START)
  const ts = await startTestSystem(t, { clock: clock.now })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const secondId = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
  const otherClient = await ts.call<number>('add_client', clientPayload('Other Dental'), other.key)
  /** Records a failure as the publisher would, a minute after the last, and waits for the read models. */
  const fail = async (input: Omit<PushFailureInput, 'orgId'> & { orgId?: number }) => {
    clock.advance(60_000)
    const result = await recordPushFailure(ts.system.write, systemContext('test-publisher'), { orgId: org.orgId, ...input })
    await readModelsAt(ts, result.position)
    return result.failureId
  }
  return { clock, ts, org, other, clientId, secondId, otherClient, fail }
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id)

t.test('record, list, count, auto-resolve per operation', async (t) => {
  const { ts, org, other, clientId, secondId, otherClient, fail } = await setup(t)
  t.same(await ts.call('get_unresolved_push_failures', {}, org.key), [], 'none yet')
  t.equal(await ts.call('count_unresolved_push_failures', {}, org.key), 0)

  const auth = await fail({
    clientId,
    operation: 'apply_site_edit',
    category: 'auth',
    error: 'WordPress answered 401 rest_cannot_edit',
    editId: 61,
    target: 'wp:page/210',
    httpStatus: 401,
    attempts: 1,
  })
  const timeout = await fail({ clientId, operation: 'apply_site_edit', category: 'timeout', error: 'no answer in 20 s', attempts: 3 })
  const media = await fail({ clientId, operation: 'media', category: 'server_error', error: 'HTTP 502', httpStatus: 502 })
  const roofing = await fail({ clientId: secondId, operation: 'apply_site_edit', category: 'blocked', error: 'x'.repeat(3000) })
  const foreign = await fail({
    orgId: other.orgId,
    clientId: otherClient,
    operation: 'blog_post',
    category: 'network',
    error: 'ECONNRESET',
  })

  const list = await ts.call<any[]>('get_unresolved_push_failures', {}, org.key)
  t.same(ids(list), [roofing, media, timeout, auth], "the organization's, newest first")
  t.same(list[3], {
    id: auth,
    client_id: clientId,
    client_name: 'Acme Plumbing',
    operation: 'apply_site_edit',
    category: 'auth',
    error: 'WordPress answered 401 rest_cannot_edit',
    edit_id: 61,
    target: 'wp:page/210',
    http_status: 401,
    attempts: 1,
    occurred_at: at(1),
    resolved_at: null,
    resolved_note: null,
    resolved_auto: null,
  })
  t.match(list[2], { id: timeout, edit_id: null, target: null, http_status: null, attempts: 3 }, 'absent details are null')
  t.equal(list[0].error.length, 2000, 'a long error is cut to 2000 characters')
  t.same(ids(await ts.call<any[]>('get_unresolved_push_failures', {}, other.key)), [foreign], 'the other organization sees only its own')
  t.same(
    ids(await ts.call<any[]>('get_unresolved_push_failures', {}, ts.platformKey)),
    [foreign, roofing, media, timeout, auth],
    'a platform key: every organization',
  )
  t.same(ids(await ts.call<any[]>('get_unresolved_push_failures', { limit: 2, offset: 1 }, org.key)), [media, timeout], 'paged')
  t.same(ids(await ts.call<any[]>('get_unresolved_push_failures_for_org', {}, org.key)), [roofing, media, timeout, auth])
  t.same(ids(await ts.call<any[]>('get_unresolved_push_failures_for_org', { limit: 1 }, org.key)), [roofing], 'limit')
  t.same(ids(await ts.call<any[]>('get_unresolved_push_failures_for_org', { org_id: other.orgId }, ts.platformKey)), [foreign])
  expectError(t, await ts.rpc('get_unresolved_push_failures_for_org', {}, ts.platformKey), 400, 'org_id_required')

  t.equal(await ts.call('count_unresolved_push_failures', {}, org.key), 4)
  t.equal(await ts.call('count_unresolved_push_failures', {}, ts.platformKey), 5, 'platform key: every organization')
  t.equal(await ts.call('count_unresolved_push_failures', { client_id: clientId }, org.key), 3)
  t.equal(await ts.call('count_unresolved_push_failures', { categories: ['auth', 'blocked'] }, org.key), 2)
  t.equal(await ts.call('count_unresolved_push_failures', { client_id: clientId, categories: ['timeout'] }, org.key), 1)
  t.equal(await ts.call('count_unresolved_push_failures_for_org', {}, org.key), 4)
  t.equal(await ts.call('count_unresolved_push_failures_for_org', { org_id: other.orgId }, ts.platformKey), 1)

  // The next apply_site_edit of the client succeeded: its two apply failures go, its media failure stays.
  t.equal(await ts.call('auto_resolve_push_failures', { client_id: clientId, operation: 'apply_site_edit' }, org.key), 2)
  const stream = `push_failures-${clientId}`
  const events = await streamEvents(ts, stream)
  t.same(
    events.map((e) => e.type),
    ['PushFailureRecorded', 'PushFailureRecorded', 'PushFailureRecorded', 'PushFailuresResolved'],
  )
  t.same(events[3]!.data, {
    client_id: clientId,
    operation: 'apply_site_edit',
    failure_ids: [auth, timeout],
    note: 'auto: next attempt succeeded',
    auto: true,
  })
  t.equal(await ts.call('auto_resolve_push_failures', { client_id: clientId, operation: 'apply_site_edit' }, org.key), 0, 'again: 0')
  t.equal((await streamEvents(ts, stream)).length, 4, 'nothing unresolved: no event')
  t.equal(
    await ts.call('auto_resolve_push_failures', { client_id: clientId, operation: 'sitemap_ping', note: 'pinged fine' }, org.key),
    0,
    'an operation with no failures',
  )
  t.same(ids(await ts.call<any[]>('get_unresolved_push_failures', {}, org.key)), [roofing, media])
  t.equal(await ts.call('count_unresolved_push_failures', { client_id: secondId }, org.key), 1, "the other client's failure stays")

  const all = await ts.call<any[]>('get_push_failures', { client_id: clientId, include_resolved: true }, org.key)
  t.same(ids(all), [media, timeout, auth], 'resolved ones with include_resolved')
  t.match(all[2], { resolved_note: 'auto: next attempt succeeded', resolved_auto: true })
  t.ok(all[2].resolved_at, 'resolved_at set')
  t.same(ids(await ts.call<any[]>('get_push_failures', { client_id: clientId }, org.key)), [media], 'by default only unresolved')
})

t.test('resolve one by hand', async (t) => {
  const { clock, ts, org, clientId, fail } = await setup(t)
  const first = await fail({ clientId, operation: 'redirect', category: 'not_found', error: 'Redirection plugin is not active' })
  const second = await fail({ clientId, operation: 'redirect', category: 'not_found', error: 'Redirection plugin is not active' })
  clock.advance(60_000)
  const resolved = await ts.call<any>('resolve_push_failure', { failure_id: first, note: 'Plugin installed' }, org.key)
  t.match(resolved, { id: first, resolved_at: at(3), resolved_note: 'Plugin installed', resolved_auto: false })
  const again = await ts.call<any>('resolve_push_failure', { failure_id: first, note: 'twice' }, org.key)
  t.same(again, resolved, 'already resolved: nothing changes')
  t.match(await ts.call('resolve_push_failure', { failure_id: second }, org.key), { resolved_note: 'resolved by hand' }, 'default note')
  t.equal(await ts.call('count_unresolved_push_failures', {}, org.key), 0)
  t.equal((await streamEvents(ts, `push_failures-${clientId}`)).length, 4, 'two records, two resolutions')
})

t.test('validation', async (t) => {
  const { ts, org, clientId, fail } = await setup(t)
  expectError(t, await ts.rpc('count_unresolved_push_failures', { categories: ['auth', 'gremlins'] }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('count_unresolved_push_failures', { categories: [] }, org.key), 400, 'validation_failed')
  expectError(
    t,
    await ts.rpc('auto_resolve_push_failures', { client_id: clientId, operation: 'Apply Edit' }, org.key),
    400,
    'validation_failed',
  )
  expectError(t, await ts.rpc('auto_resolve_push_failures', { client_id: clientId }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('get_push_failures', { client_id: clientId, include_resolved: 'yes' }, org.key), 400, 'validation_failed')
  await t.rejects(
    fail({ clientId, operation: 'Apply-Edit', category: 'auth', error: 'x' }),
    { code: 'validation_failed' },
    'the command refuses an operation outside the rule',
  )
  t.equal(await ts.call('count_unresolved_push_failures', {}, org.key), 0, 'nothing recorded')
})

t.test("another organization's client and failure answer like missing ones", async (t) => {
  const { ts, org, other, otherClient, fail } = await setup(t)
  const foreign = await fail({ orgId: other.orgId, clientId: otherClient, operation: 'media', category: 'auth', error: 'HTTP 403' })
  await t.rejects(
    fail({ clientId: otherClient, operation: 'media', category: 'auth', error: 'HTTP 403' }),
    { code: 'not_found' },
    'the command refuses a client of another organization than the one named',
  )
  const missing = 999_999
  const cases: [string, (id: number) => Record<string, unknown>][] = [
    ['get_push_failures', (id) => ({ client_id: id })],
    ['count_unresolved_push_failures', (id) => ({ client_id: id })],
    ['auto_resolve_push_failures', (id) => ({ client_id: id, operation: 'media' })],
  ]
  for (const [method, body] of cases) {
    const hidden = expectError(t, await ts.rpc(method, body(otherClient), org.key), 404, 'not_found', method)
    const absent = expectError(t, await ts.rpc(method, body(missing), org.key), 404, 'not_found', method)
    t.same(withoutIds(hidden, [otherClient]), withoutIds(absent, [missing]), `${method}: foreign like missing`)
  }
  const hidden = expectError(t, await ts.rpc('resolve_push_failure', { failure_id: foreign }, org.key), 404, 'not_found')
  const absent = expectError(t, await ts.rpc('resolve_push_failure', { failure_id: missing }, org.key), 404, 'not_found')
  t.same(withoutIds(hidden, [foreign]), withoutIds(absent, [missing]))
  t.equal(await ts.call('count_unresolved_push_failures', {}, other.key), 1, "the other organization's failure is untouched")
  t.match(
    await ts.call('resolve_push_failure', { failure_id: foreign, org_id: other.orgId }, ts.platformKey),
    { resolved_auto: false },
    'a platform key reaches it',
  )
})
