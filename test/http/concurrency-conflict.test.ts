/**
 * Many writers on one stream. The command handler retries a refused append a few times; when
 * every attempt loses the race the answer is 409 concurrency_conflict with Retry-After (the caller may simply
 * retry), never a 500. Nothing else about the write changes: the client ends with one of the written names.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'

const WRITES = 200
const PARALLEL = 100

t.test(`${WRITES} update_client on one client, ${PARALLEL} at a time: every answer 200 or 409 with Retry-After`, async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Race')
  const clientId = await ts.call<number>('add_client', clientPayload('Race Plumbing'), org.key)

  const statuses = new Map<number, number>()
  const written: string[] = []
  const conflicts: { retryAfter: unknown; body: string }[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < WRITES) {
        const name = `Race ${next++}`
        const response = await ts.rpc('update_client', { client_id: clientId, name }, org.key)
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
        if (response.statusCode === 200) written.push(name)
        else if (response.statusCode === 409) {
          expectError(t, response, 409, 'concurrency_conflict')
          conflicts.push({ retryAfter: response.headers['retry-after'], body: response.body })
        } else t.fail(`update_client answered ${response.statusCode}: ${response.body.slice(0, 300)}`)
      }
    }),
  )
  t.comment(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`)
  t.notOk(statuses.has(500), 'no 500 internal_error')
  t.ok(conflicts.length > 0, 'the race was lost at least once (otherwise this test proves nothing: raise PARALLEL)')
  for (const conflict of conflicts) {
    t.match(String(conflict.retryAfter), /^[1-9]\d*$/, 'a 409 carries Retry-After in whole seconds')
  }
  t.ok(written.length > 0, 'some writes succeeded')
  const client = await ts.call<{ name: string }>('get_client', { client_id: clientId }, org.key)
  t.ok(written.includes(client.name), `the client ends with a written name (${client.name})`)
})
