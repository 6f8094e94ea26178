/**
 * JSON nested deeper than the published limit (limits.max_json_depth: the request body is level 1) is refused
 * with 400 validation_failed naming the field, before anything serialises it again. Without the limit a
 * record_json nested 5,000 deep on ingest_aeo_capture would overflow the stack in JSON.stringify (500).
 */
import t from 'tap'
import { MAX_JSON_DEPTH } from '../../domain/shared/json-limits.js'
import { startTestSystem } from '../support/system.js'
import { enrolAcme } from './aeo-captures-support.js'
import { eventCount, expectError, rawRpc } from './helpers.js'

/** `depth` nested arrays (or objects) around a string, as JSON text, built without recursion. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`

t.test('record_json nested 5,000 and 100,000 deep on ingest_aeo_capture answers 400 validation_failed naming it', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId } = await enrolAcme(ts)
  const before = await eventCount(ts)
  const headers = { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' }
  const prefix = `{"client_id":${clientId},"query_id":${queryId},"engine":"claude","answer_text":"Acme Plumbing.","citations":[],"record_json":`

  for (const [what, record] of [
    ['arrays 5,000 deep', nestedArrays(5000)],
    ['objects 5,000 deep', nestedObjects(5000)],
    ['arrays 100,000 deep', nestedArrays(100_000)],
  ] as const) {
    for (const idempotent of [false, true]) {
      const response = await rawRpc(
        ts,
        'ingest_aeo_capture',
        `${prefix}${record}}`,
        idempotent ? { ...headers, 'idempotency-key': `deep-${what}` } : headers,
      )
      const body = expectError(t, response, 400, 'validation_failed', `${what}${idempotent ? ' with an Idempotency-Key' : ''}`)
      t.match(body.detail ?? '', /^record_json\b/, `${what}: detail names record_json (${body.detail?.slice(0, 120)})`)
      t.match(body.detail ?? '', new RegExp(`${MAX_JSON_DEPTH}`), `${what}: detail names the limit`)
    }
  }
  t.equal(await eventCount(ts), before, 'nothing was appended to the log')

  // At the limit it is accepted: the body is level 1, so record_json may nest MAX_JSON_DEPTH - 1 levels.
  const atLimit = await rawRpc(ts, 'ingest_aeo_capture', `${prefix}${nestedObjects(MAX_JSON_DEPTH - 1)}}`, headers)
  t.equal(atLimit.statusCode, 200, `record_json ${MAX_JSON_DEPTH - 1} deep is accepted (body ${atLimit.body.slice(0, 200)})`)
  const overLimit = await rawRpc(ts, 'ingest_aeo_capture', `${prefix}${nestedObjects(MAX_JSON_DEPTH)}}`, headers)
  expectError(t, overLimit, 400, 'validation_failed', `record_json ${MAX_JSON_DEPTH} deep`)
})

t.test('a deep body on any RPC or endpoint answers 400 validation_failed, not 500', async (t) => {
  const ts = await startTestSystem(t)
  const headers = { authorization: `Bearer ${ts.platformKey}`, 'content-type': 'application/json' }
  const deep = nestedArrays(50_000)
  for (const [what, url, body] of [
    ['a read RPC', '/api/v1/rpc/get_all_clients', `{"org_id":${deep}}`],
    ['a write RPC', '/api/v1/rpc/create_organization', `{"name":"X","extra":${deep}}`],
    ['an unknown RPC', '/api/v1/rpc/no_such_method', `{"x":${deep}}`],
    ['a top-level array', '/api/v1/rpc/get_all_clients', deep],
    ['a job payload', '/api/v1/jobs', `{"kind":"export_org","payload":{"note":${deep}}}`],
    [
      'the MCP endpoint',
      '/api/v1/mcp',
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_all_clients","arguments":{"x":${deep}}}}`,
    ],
  ] as const) {
    const response = await ts.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, accept: 'application/json, text/event-stream' },
      payload: body,
    })
    const refused = expectError(t, response, 400, 'validation_failed', what)
    t.match(refused.detail ?? '', new RegExp(`deeper than ${MAX_JSON_DEPTH}`), `${what}: detail says why`)
  }
})

t.test('the limits document publishes the depth limit', async (t) => {
  const ts = await startTestSystem(t)
  const response = await ts.app.inject({
    method: 'GET',
    url: '/api/v1/capabilities',
    headers: { authorization: `Bearer ${ts.platformKey}` },
  })
  t.equal(response.statusCode, 200)
  const json = response.json().limits.json
  t.equal(json.max_depth, MAX_JSON_DEPTH, 'limits.json.max_depth')
  t.match(json.depth_note, /record_json/, 'and says what it applies to')
})
