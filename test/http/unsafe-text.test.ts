/**
 * Text PostgreSQL cannot store (U+0000) or that is not Unicode at all (an unpaired UTF-16 surrogate) is
 * refused at the edge with 400 validation_failed naming the field, in any string parameter of any RPC (at any
 * depth, keys included) and in any /api/v1/db text filter, and changes nothing. Unchecked, each of these
 * would reach the database and answer 500 internal_error.
 */
import t from 'tap'
import { DB_TABLES } from '../../read-api/db-tables.js'
import { startTestSystem } from '../support/system.js'
import { enrolAcme } from './aeo-captures-support.js'
import { clientPayload, eventCount, expectError, orgWithKey } from './helpers.js'

const NUL = 'a\u0000b'
const HIGH_ALONE = 'a\ud800b'
const LOW_ALONE = 'a\udc00'
const HIGH_AT_END = 'abc\ud83d'

t.test('NUL and unpaired surrogates in any RPC string parameter answer 400 validation_failed naming the field', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId } = await enrolAcme(ts)
  const before = await eventCount(ts)
  const capture = { client_id: clientId, query_id: queryId, engine: 'claude', answer_text: 'Acme Plumbing is good.', citations: [] }

  const cases: { what: string; method: string; body: unknown; field: RegExp; platform?: true }[] = [
    { what: 'NUL in a nested name', method: 'add_client', body: clientPayload(NUL), field: /client\.name/ },
    { what: 'lone high surrogate in a nested name', method: 'add_client', body: clientPayload(HIGH_ALONE), field: /client\.name/ },
    {
      what: 'lone low surrogate in a setting value',
      method: 'set_client_setting',
      body: { client_id: clientId, key: 'tier', value: LOW_ALONE },
      field: /value/,
    },
    {
      what: 'NUL in a settings key (an object key)',
      method: 'add_client',
      body: clientPayload('Keyed', { settings: { [NUL]: 'v' } }),
      field: /client\.settings/,
    },
    {
      what: 'high surrogate at the end of an array item',
      method: 'add_client',
      body: clientPayload('Listed', { services: ['Drains', HIGH_AT_END] }),
      field: /client\.services\.1/,
    },
    {
      what: 'NUL in a long free text',
      method: 'ingest_aeo_capture',
      body: { ...capture, answer_text: `${'x'.repeat(5000)}\u0000` },
      field: /answer_text/,
    },
    {
      what: 'NUL inside record_json',
      method: 'ingest_aeo_capture',
      body: { ...capture, record_json: { output: [{ text: NUL }] } },
      field: /record_json\.output\.0\.text/,
    },
    {
      what: 'lone surrogate in record_json given as text',
      method: 'ingest_aeo_capture',
      body: { ...capture, record_json: HIGH_ALONE },
      field: /record_json/,
    },
    {
      what: 'NUL in a read parameter',
      method: 'get_client',
      body: { client_id: clientId, as_of: `2026-01-01T00:00:00Z${'\u0000'}` },
      field: /as_of/,
    },
    { what: 'NUL in a platform method', method: 'create_organization', body: { name: NUL }, field: /name/, platform: true },
    { what: 'NUL in a key name', method: 'create_api_key', body: { name: 'k', notes: NUL, scopes: 'read' }, field: /notes/ },
  ]
  for (const c of cases) {
    const response = await ts.rpc(c.method, c.body, c.platform ? ts.platformKey : org.key)
    const body = expectError(t, response, 400, 'validation_failed', c.what)
    t.match(body.detail ?? '', c.field, `${c.what}: detail names the field (${body.detail})`)
    t.match(body.detail ?? '', /U\+0000|surrogate/, `${c.what}: detail says what is wrong`)
  }
  t.equal(await eventCount(ts), before, 'nothing was appended to the log')

  // Well-formed text beyond the Basic Multilingual Plane (a surrogate pair) is fine.
  const emoji = await ts.call<number>('add_client', clientPayload('Pipes 🚿 & Co'), org.key)
  t.equal(
    (await ts.call<{ name: string }>('get_client', { client_id: emoji }, org.key)).name,
    'Pipes 🚿 & Co',
    'a surrogate pair is stored as sent',
  )
})

t.test('a NUL in a job payload answers 400 validation_failed naming it', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const before = await eventCount(ts)
  const response = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ kind: 'export_org', payload: { note: NUL } }),
  })
  const body = expectError(t, response, 400, 'validation_failed')
  t.match(body.detail ?? '', /payload\.note/)
  t.equal(await eventCount(ts), before, 'no job requested')
})

t.test('%00 in any /api/v1/db text filter answers 400 validation_failed naming the filter', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  let columns = 0
  // Every text column of the allow-list, so a column added later is covered without touching this test.
  for (const [table, spec] of Object.entries(DB_TABLES)) {
    for (const [column, columnSpec] of Object.entries(spec.columns)) {
      if (columnSpec.type !== 'text') continue
      columns++
      const response = await ts.app.inject({
        method: 'GET',
        url: `/api/v1/db/${table}?where_${column}=a%00b`,
        headers: { authorization: `Bearer ${org.key}` },
      })
      const body = expectError(t, response, 400, 'validation_failed', `${table}.${column}`)
      t.match(body.detail ?? '', new RegExp(`where_${column}\\b.*U\\+0000`), `${table}.${column}: detail names the filter`)
    }
  }
  t.ok(columns >= 58, `every text column was tried (${columns})`)
  // A filter without the NUL still reads.
  const fine = await ts.app.inject({
    method: 'GET',
    url: '/api/v1/db/clients?where_name=a%20b',
    headers: { authorization: `Bearer ${org.key}` },
  })
  t.equal(fine.statusCode, 200, 'an ordinary text filter still works')
})
