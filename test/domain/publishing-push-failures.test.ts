/**
 * Push failures, pure: the client's push failures aggregate (record, a retried record, resolve every
 * unresolved failure of one operation and only that one, nothing to resolve, resolve one, resolve twice,
 * another client's id), and the operation name rule.
 */
import t from 'tap'
import { PUSH_FAILURE_CATEGORIES } from '../../domain/publishing/push-failures/categories.js'
import {
  clientPushFailures,
  clientPushFailuresStream,
  type ClientPushFailuresCommand,
  unresolvedOf,
} from '../../domain/publishing/push-failures/client-push-failures.js'
import type { PushFailureEvent } from '../../domain/publishing/push-failures/events.js'
import { KNOWN_PUSH_OPERATIONS, PUSH_OPERATION_PATTERN, PushOperation } from '../../domain/publishing/push-failures/operations.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const given = spec(clientPushFailures)

const recordCommand = (failure_id: number, operation = 'apply_site_edit'): ClientPushFailuresCommand => ({
  type: 'RecordPushFailure',
  failure_id,
  client_id: 7,
  operation,
  category: 'server_error',
  error: 'HTTP 502 from https://acme.example/wp-json/wp/v2/pages/12',
  edit_id: 61,
  target: 'wp:page/12',
  http_status: 502,
  attempts: 3,
})
const recorded = (failure_id: number, operation = 'apply_site_edit'): PushFailureEvent => {
  const { type: _type, ...data } = recordCommand(failure_id, operation) as Extract<ClientPushFailuresCommand, { type: 'RecordPushFailure' }>
  return { type: 'PushFailureRecorded', data }
}
const resolved = (operation: string, failure_ids: number[], note: string, auto: boolean): PushFailureEvent => ({
  type: 'PushFailuresResolved',
  data: { client_id: 7, operation, failure_ids, note, auto },
})

t.test('the stream is per client', async (t) => {
  t.equal(clientPushFailuresStream(7), 'push_failures-7')
  t.equal(clientPushFailures.streamOf(12), 'push_failures-12')
})

t.test('a failure is recorded unresolved; the same failure id again records nothing', async (t) => {
  given()
    .when(recordCommand(1))
    .then(t, [recorded(1)])
  given(recorded(1)).when(recordCommand(1)).thenNothingHappens(t)
  t.same(unresolvedOf(fold(clientPushFailures, [recorded(1)]), 'apply_site_edit'), [1])
})

t.test('an error longer than 2000 characters is cut', async (t) => {
  const long = { ...(recordCommand(2) as Extract<ClientPushFailuresCommand, { type: 'RecordPushFailure' }>), error: 'x'.repeat(5000) }
  const [event] = given()
    .when(long)
    .then(t, [{ type: 'PushFailureRecorded', data: { ...(recorded(2).data as object), error: 'x'.repeat(2000) } } as PushFailureEvent])
  t.ok(event, 'recorded')
})

t.test('resolving an operation takes every unresolved failure of it, and only of it', async (t) => {
  const log = [recorded(1), recorded(2, 'media'), recorded(3), resolved('apply_site_edit', [1], 'fixed', false), recorded(4)]
  given(...log)
    .when({ type: 'ResolvePushFailures', client_id: 7, operation: 'apply_site_edit', note: 'auto: next attempt succeeded', auto: true })
    .then(t, [resolved('apply_site_edit', [3, 4], 'auto: next attempt succeeded', true)])
  const after = fold(clientPushFailures, [...log, resolved('apply_site_edit', [3, 4], 'n', true)])
  t.same(unresolvedOf(after, 'apply_site_edit'), [], 'none left of the operation')
  t.same(unresolvedOf(after, 'media'), [2], 'the other operation keeps its failure')
})

t.test('nothing unresolved: resolving records nothing', async (t) => {
  given().when({ type: 'ResolvePushFailures', client_id: 7, operation: 'media', note: 'n', auto: true }).thenNothingHappens(t)
  given(recorded(1), resolved('apply_site_edit', [1], 'n', true))
    .when({ type: 'ResolvePushFailures', client_id: 7, operation: 'apply_site_edit', note: 'n', auto: true })
    .thenNothingHappens(t)
})

t.test('one failure resolved by a person: its operation, auto false, the note trimmed', async (t) => {
  given(recorded(1), recorded(2, 'media'))
    .when({ type: 'ResolvePushFailure', client_id: 7, failure_id: 2, note: '  re-uploaded by hand ' })
    .then(t, [resolved('media', [2], 're-uploaded by hand', false)])
  given(recorded(2, 'media'), resolved('media', [2], 'n', false))
    .when({ type: 'ResolvePushFailure', client_id: 7, failure_id: 2, note: 'again' })
    .thenNothingHappens(t)
  given(recorded(1))
    .when({ type: 'ResolvePushFailure', client_id: 7, failure_id: 99, note: 'n' })
    .thenThrows(t, 'not_found', { detail: 'push failure 99 not found' })
})

t.test('operations: the known ones and any lower-case name', async (t) => {
  for (const op of KNOWN_PUSH_OPERATIONS) t.ok(PUSH_OPERATION_PATTERN.test(op), `${op} matches the rule`)
  t.ok(PushOperation.safeParse('sitemap_ping').success, 'an unknown lower-case name is accepted')
  for (const bad of ['', 'Apply', '1st', 'apply-site-edit', 'a'.repeat(65), 'apply site edit']) {
    t.notOk(PushOperation.safeParse(bad).success, `"${bad.slice(0, 20)}" is refused`)
  }
  t.ok(PUSH_FAILURE_CATEGORIES.includes('auth'), 'the categories are the shared ones')
})
