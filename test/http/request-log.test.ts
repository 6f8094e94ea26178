/**
 * A request's log lines say which request, organization, key and RPC method they belong
 * to, so an operator can follow one caller through the JSON logs (and match X-Request-Id and the events'
 * metadata.request_id). The logger is the service's own (ops/logger.ts), writing to a stream the test reads.
 */
import { Writable } from 'node:stream'
import t from 'tap'
import { createLogger } from '../../ops/logger.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from './helpers.js'

type Line = Record<string, unknown> & { msg?: string }

function captureLogger() {
  const lines: Line[] = []
  const raw: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text.trim() === '') continue
        raw.push(text)
        lines.push(JSON.parse(text) as Line)
      }
      done()
    },
  })
  return { log: createLogger('info', stream), lines, raw }
}

t.test('a request’s log lines carry request_id, org_id, key_id and the RPC method', async (t) => {
  const { log, lines, raw } = captureLogger()
  const ts = await startTestSystem(t, { log })
  const org = await orgWithKey(ts, 'Logged')

  const response = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/add_client',
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', 'x-request-id': 'log-test-add-1' },
    payload: JSON.stringify(clientPayload('Logged client')),
  })
  t.equal(response.statusCode, 200)
  const mine = lines.filter((l) => l.request_id === 'log-test-add-1')
  const completed = mine.find((l) => l.msg === 'request completed')
  t.ok(completed, `a "request completed" line with request_id (lines: ${JSON.stringify(mine).slice(0, 300)})`)
  t.match(completed, { request_id: 'log-test-add-1', org_id: org.orgId, key_id: org.keyId, rpc: 'add_client', res: { statusCode: 200 } })
  t.notOk(
    lines.some((l) => 'reqId' in l),
    'one name for the request id: request_id, as in X-Request-Id and event metadata',
  )

  // A platform key: no organization (null), its own key id.
  await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/get_organization',
    headers: { authorization: `Bearer ${ts.platformKey}`, 'content-type': 'application/json', 'x-request-id': 'log-test-platform-1' },
    payload: JSON.stringify({ org_id: org.orgId }),
  })
  const platform = lines.find((l) => l.request_id === 'log-test-platform-1' && l.msg === 'request completed')
  t.match(platform, { org_id: null, rpc: 'get_organization' })
  t.type(platform?.key_id, 'number', 'the platform key’s id')

  // Refused before anyone is known: the method is still named, no caller fields are invented.
  await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/get_all_clients',
    headers: { 'content-type': 'application/json', 'x-request-id': 'log-test-anon-1' },
    payload: '{}',
  })
  const anonymous = lines.find((l) => l.request_id === 'log-test-anon-1' && l.msg === 'request completed')
  t.match(anonymous, { rpc: 'get_all_clients', res: { statusCode: 401 } })
  t.notOk(anonymous && ('org_id' in anonymous || 'key_id' in anonymous), 'no org_id or key_id for an unauthenticated request')

  // Each field once per line: bindings added after auth must not repeat (JSON with duplicate keys).
  const text = raw.find((l) => l.includes('"log-test-add-1"') && l.includes('request completed')) ?? ''
  for (const key of ['request_id', 'org_id', 'key_id', 'rpc']) t.equal(text.split(`"${key}":`).length - 1, 1, `${key} once`)
})
