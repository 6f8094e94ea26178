/**
 * The generic table read, GET /api/v1/db/<table>: the allow-list (tables, columns, withheld columns), typed
 * equality filters, organization scoping (by column and through the client), the platform key's explicit
 * org_id, limits and stable paging, and the coded errors for each refusal.
 */
import type { LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { DB_MAX_LIMIT, DB_TABLES } from '../../read-api/db-tables.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { enrolAcme } from './aeo-captures-support.js'
import { f } from './aeo-captures-support.js'
import { clientPayload, expectError, keyFor, orgWithKey, type Assert } from './helpers.js'

interface Page {
  table: string
  rows: Record<string, any>[]
  limit: number
  offset: number
  next_offset?: number
}

function get(ts: TestSystem, path: string, key: string | undefined): Promise<LightMyRequestResponse> {
  return ts.app.inject({ method: 'GET', url: path, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } })
}

async function page(t: Assert, ts: TestSystem, path: string, key: string): Promise<Page> {
  const response = await get(ts, path, key)
  t.equal(response.statusCode, 200, `GET ${path} (body ${response.body.slice(0, 300)})`)
  return response.json() as Page
}

const ids = (p: Page, column = 'id') => p.rows.map((r) => r[column] as number)

t.test('GET /api/v1/db lists the readable tables and columns, never a withheld one', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const response = await get(ts, '/api/v1/db', org.key)
  t.equal(response.statusCode, 200)
  const body = response.json() as {
    tables: { name: string; columns: { name: string; type: string; filterable: boolean }[]; order_by: string[] }[]
    limit: { default: number; max: number }
  }
  t.same(
    body.tables.map((x) => x.name),
    Object.keys(DB_TABLES),
    'every allow-listed table, in order',
  )
  t.same(body.limit, { default: 100, max: DB_MAX_LIMIT })
  const apiKeys = body.tables.find((x) => x.name === 'api_keys')!
  t.notOk(
    apiKeys.columns.some((c) => c.name === 'key_hash'),
    'key_hash is not listed',
  )
  t.notOk(response.body.includes('key_hash'), 'nor mentioned anywhere')
  const cadences = body.tables.find((x) => x.name === 'aeo_cadences')!
  t.same(
    cadences.columns.find((c) => c.name === 'engines'),
    { name: 'engines', type: 'text[]', nullable: false, filterable: false },
  )
  expectError(t, await get(ts, '/api/v1/db', undefined), 401, 'unauthorized', 'no key')
})

t.test('an organization key reads only its own organization, whatever it filters on', async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'Alpha')
  const b = await orgWithKey(ts, 'Beta')
  const a1 = await ts.call<number>(
    'add_client',
    clientPayload('Alpha One', { services: ['Roofing', 'Gutters'], locations: ['Austin, TX'] }),
    a.key,
  )
  const a2 = await ts.call<number>('add_client', clientPayload('Alpha Two'), a.key)
  const b1 = await ts.call<number>('add_client', clientPayload('Beta One', { services: ['Plumbing'] }), b.key)

  const mine = await page(t, ts, '/api/v1/db/clients', a.key)
  t.same(ids(mine), [a1, a2], "A's clients in id order")
  t.ok(mine.rows.every((r) => r.org_id === a.orgId))
  t.same(Object.keys(mine.rows[0]!), Object.keys(DB_TABLES.clients!.columns), 'exactly the allow-listed columns')
  t.match(mine.rows[0]!.created_at, /^\d{4}-\d{2}-\d{2}T/, 'times as ISO strings')
  t.same({ ...mine, rows: [] }, { table: 'clients', rows: [], limit: 100, offset: 0 }, 'the page shape, no next_offset on the last page')

  t.same(ids(await page(t, ts, `/api/v1/db/clients?where_id=${b1}`, a.key)), [], "B's client by id: no rows")
  t.same(ids(await page(t, ts, `/api/v1/db/clients?where_org_id=${b.orgId}`, a.key)), [], "B's org_id as a filter: no rows")
  const services = await page(t, ts, '/api/v1/db/client_services', a.key)
  t.same(services.rows.map((r) => r.name).sort(), ['Gutters', 'Roofing'], "only A's services")
  t.same(ids(await page(t, ts, '/api/v1/db/organizations', a.key)), [a.orgId], 'its own organization row only')
  t.same(ids(await page(t, ts, `/api/v1/db/organizations?where_id=${b.orgId}`, a.key)), [])

  // Naming another organization is answered like a missing record, as RPCs do.
  const foreign = expectError(
    t,
    await get(ts, `/api/v1/db/clients?org_id=${b.orgId}`, a.key),
    404,
    'not_found',
    'org_id of another organization',
  )
  const missing = expectError(t, await get(ts, '/api/v1/db/clients?org_id=999999', a.key), 404, 'not_found', 'org_id of no organization')
  t.equal(foreign.detail!.replace(String(b.orgId), 'X'), missing.detail!.replace('999999', 'X'), 'no existence leak')
  t.same(ids(await page(t, ts, `/api/v1/db/clients?org_id=${a.orgId}`, a.key)), [a1, a2], 'its own org_id is accepted')

  const keys = await page(t, ts, '/api/v1/db/api_keys', a.key)
  t.same(ids(keys), [a.keyId], "only A's key")
  t.notOk('key_hash' in keys.rows[0]!, 'no key hash in the rows')
  const { rows } = await ts.database.pool.query<{ key_hash: string }>('select key_hash from read_models.api_keys where id = $1', [a.keyId])
  t.notOk(JSON.stringify(keys).includes(rows[0]!.key_hash), 'the hash appears nowhere')
  t.notOk(JSON.stringify(keys).includes(a.key), 'nor the key')
})

t.test('a platform key reads across organizations only when it does not name one', async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'Alpha')
  const b = await orgWithKey(ts, 'Beta')
  const a1 = await ts.call<number>('add_client', clientPayload('Alpha One'), a.key)
  const b1 = await ts.call<number>('add_client', clientPayload('Beta One'), b.key)
  t.same(ids(await page(t, ts, '/api/v1/db/clients', ts.platformKey)), [a1, b1], 'every organization')
  t.same(ids(await page(t, ts, `/api/v1/db/clients?org_id=${a.orgId}`, ts.platformKey)), [a1], 'org_id narrows to A')
  t.same(ids(await page(t, ts, `/api/v1/db/clients?where_org_id=${b.orgId}`, ts.platformKey)), [b1], 'where_org_id narrows to B')
  t.same(ids(await page(t, ts, `/api/v1/db/organizations?org_id=${b.orgId}`, ts.platformKey)), [b.orgId], 'organizations scope by id')
  t.same(
    ids(await page(t, ts, `/api/v1/db/clients?org_id=${a.orgId}&where_id=${b1}`, ts.platformKey)),
    [],
    'a filter never widens the scope',
  )
})

t.test('a table without org_id is scoped through its client', async (t) => {
  const ts = await startTestSystem(t)
  const acme = await enrolAcme(ts, 'Acme Agency')
  const other = await enrolAcme(ts, 'Other Agency')
  for (const e of [acme, other]) {
    await ts.call(
      'ingest_aeo_capture',
      { client_id: e.clientId, query_id: e.queryId, engine: 'claude', answer_text: f.absent, citations: f.absentCitations },
      e.org.key,
    )
  }
  const acmeHits = await page(t, ts, '/api/v1/db/aeo_item_hits', acme.org.key)
  t.ok(acmeHits.rows.length > 0, 'the capture raised tracker items')
  t.ok(
    acmeHits.rows.every((r) => r.client_id === acme.clientId),
    "only Acme's client's hits",
  )
  const otherHits = await page(t, ts, '/api/v1/db/aeo_item_hits', other.org.key)
  t.ok(otherHits.rows.length > 0 && otherHits.rows.every((r) => r.client_id === other.clientId), "only Other's")
  t.same(
    ids(await page(t, ts, `/api/v1/db/aeo_item_hits?where_client_id=${other.clientId}`, acme.org.key), 'item_id'),
    [],
    "filtering on the other's client finds nothing",
  )
  const all = await page(t, ts, '/api/v1/db/aeo_item_hits', ts.platformKey)
  t.equal(all.rows.length, acmeHits.rows.length + otherHits.rows.length, 'the platform key sees both')
  const scoped = await page(t, ts, `/api/v1/db/aeo_item_hits?org_id=${acme.org.orgId}`, ts.platformKey)
  t.same(scoped.rows, acmeHits.rows, 'and with org_id exactly what the organization sees')
  const sorted = [...all.rows].sort((x, y) => x.item_id - y.item_id || x.capture_id - y.capture_id)
  t.same(all.rows, sorted, 'ordered by the primary key (item_id, capture_id)')

  const captures = await page(t, ts, '/api/v1/db/aeo_captures', acme.org.key)
  t.equal(captures.rows.length, 1)
  t.notOk('answer_text' in captures.rows[0]!, 'the answer text is withheld')
  t.ok(Array.isArray(captures.rows[0]!.citations), 'citations come back as JSON')
  expectError(t, await get(ts, '/api/v1/db/aeo_captures?where_answer_text=x', acme.org.key), 403, 'db_column_forbidden', 'withheld column')
  const queries = await page(t, ts, `/api/v1/db/aeo_queries?where_active=true&where_client_id=${acme.clientId}`, acme.org.key)
  t.same(
    ids(queries).sort((x, y) => x - y),
    [acme.queryId, acme.costQueryId].sort((x, y) => x - y),
    'a boolean filter',
  )
  t.same(ids(await page(t, ts, '/api/v1/db/aeo_queries?where_active=false', acme.org.key)), [])
})

t.test('filters are typed: ids, booleans, times, text and null', async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'Alpha')
  const c1 = await ts.call<number>('add_client', clientPayload('One', { slug: 'one' }), a.key)
  const c2 = await ts.call<number>('add_client', clientPayload('Two', { slug: 'two' }), a.key)
  await ts.call('set_client_status', { client_id: c2, status: 'deleted' }, a.key)
  t.same(ids(await page(t, ts, '/api/v1/db/clients?where_slug=two', a.key)), [c2], 'text')
  t.same(ids(await page(t, ts, `/api/v1/db/clients?where_id=0${c1}`, a.key)), [c1], 'an id with a leading zero is the same id')
  t.same(ids(await page(t, ts, '/api/v1/db/clients?where_deleted_at=null', a.key)), [c1], 'null matches an empty nullable column')
  t.same(ids(await page(t, ts, '/api/v1/db/clients?where_status=deleted', a.key)), [c2])
  const one = (await page(t, ts, `/api/v1/db/clients?where_id=${c1}`, a.key)).rows[0]!
  t.same(
    ids(await page(t, ts, `/api/v1/db/clients?where_created_at=${encodeURIComponent(one.created_at)}`, a.key)),
    [c1],
    'a time, exactly',
  )
  t.same(ids(await page(t, ts, '/api/v1/db/clients?where_slug=one&where_status=active', a.key)), [c1], 'filters combine with AND')

  expectError(t, await get(ts, '/api/v1/db/clients?where_id=abc', a.key), 400, 'db_filter_invalid', 'id not a number')
  expectError(t, await get(ts, '/api/v1/db/clients?where_id=0', a.key), 400, 'db_filter_invalid', 'id zero')
  expectError(t, await get(ts, '/api/v1/db/clients?where_id=99999999999999999', a.key), 400, 'db_filter_invalid', 'id beyond safe integers')
  expectError(t, await get(ts, '/api/v1/db/aeo_queries?where_active=yes', a.key), 400, 'db_filter_invalid', 'boolean')
  expectError(t, await get(ts, '/api/v1/db/clients?where_created_at=yesterday', a.key), 400, 'db_filter_invalid', 'time')
  expectError(t, await get(ts, '/api/v1/db/org_activity?where_event_id=123', a.key), 400, 'db_filter_invalid', 'uuid')
  t.same(ids(await page(t, ts, '/api/v1/db/clients?where_name=null', a.key)), [], 'null on a column that cannot be null is the text "null"')
  expectError(t, await get(ts, '/api/v1/db/aeo_cadences?where_engines=claude', a.key), 400, 'db_filter_invalid', 'a list column')
  expectError(t, await get(ts, '/api/v1/db/aeo_captures?where_citations=x', a.key), 400, 'db_filter_invalid', 'a JSON column')
})

t.test('unknown tables, unknown and withheld columns, bad parameters and missing scope are coded errors', async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'Alpha')
  for (const table of [
    'es_events',
    'projection_checkpoint',
    'aeo_agents',
    'user_sessions',
    'member_invites',
    'password_resets',
    '__proto__',
    'constructor',
    'CLIENTS',
    'clients;drop',
  ]) {
    expectError(t, await get(ts, `/api/v1/db/${encodeURIComponent(table)}`, a.key), 404, 'db_table_not_allowed', table)
  }
  const unknown = expectError(t, await get(ts, '/api/v1/db/clients?where_password=x', a.key), 400, 'db_column_unknown', 'unknown column')
  t.match(unknown.detail, /website_url/, 'the detail lists the readable columns')
  const hash = expectError(t, await get(ts, '/api/v1/db/api_keys?where_key_hash=abc', a.key), 403, 'db_column_forbidden', 'key hash')
  t.match(hash.detail, /never readable/)
  expectError(t, await get(ts, '/api/v1/db/aeo_queries?where_prompt_key=x', a.key), 403, 'db_column_forbidden', 'internal column')
  expectError(t, await get(ts, '/api/v1/db/clients?where_toString=x', a.key), 400, 'db_column_unknown', 'prototype names are not columns')
  expectError(t, await get(ts, '/api/v1/db/clients?where_slug=a&where_slug=b', a.key), 400, 'db_query_invalid', 'repeated filter')
  expectError(t, await get(ts, '/api/v1/db/clients?order=name', a.key), 400, 'db_query_invalid', 'unknown parameter')
  expectError(t, await get(ts, '/api/v1/db/clients?limit=0', a.key), 400, 'db_query_invalid', 'limit 0')
  expectError(t, await get(ts, `/api/v1/db/clients?limit=${DB_MAX_LIMIT + 1}`, a.key), 400, 'db_query_invalid', 'limit over the maximum')
  expectError(t, await get(ts, '/api/v1/db/clients?offset=-1', a.key), 400, 'db_query_invalid', 'negative offset')
  expectError(t, await get(ts, '/api/v1/db/clients?org_id=x', a.key), 400, 'db_query_invalid', 'org_id not a number')

  expectError(t, await get(ts, '/api/v1/db/clients', undefined), 401, 'unauthorized', 'no key')
  expectError(t, await get(ts, '/api/v1/db/clients', 'rrk_not_a_key'), 401, 'unauthorized', 'unknown key')
  const jobsOnly = await keyFor(ts, a.orgId, 'jobs')
  expectError(t, await get(ts, '/api/v1/db/clients', jobsOnly.key), 403, 'insufficient_scope', 'a key without read')
  const readOnly = await keyFor(ts, a.orgId, 'read')
  t.equal((await get(ts, '/api/v1/db/clients', readOnly.key)).statusCode, 200, 'read is enough')
})

t.test('pages follow the primary key: default and explicit limits, offsets and next_offset', async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'Alpha')
  const b = await orgWithKey(ts, 'Beta')
  const locations = Array.from({ length: 120 }, (_, i) => `Town ${i + 1}, TX`)
  const client = await ts.call<number>('add_client', clientPayload('Many', { locations }), a.key)
  await ts.call('add_client', clientPayload('Elsewhere', { locations: ['Far, TX'] }), b.key)

  const first = await page(t, ts, '/api/v1/db/client_locations', a.key)
  t.equal(first.rows.length, 100, 'the default limit is 100')
  t.equal(first.next_offset, 100)
  const second = await page(t, ts, `/api/v1/db/client_locations?offset=${first.next_offset}`, a.key)
  t.equal(second.rows.length, 20)
  t.notOk('next_offset' in second, 'no next_offset after the last row')
  const walked = [...ids(first), ...ids(second)]
  t.same(
    walked,
    [...walked].sort((x, y) => x - y),
    'ascending ids',
  )
  t.equal(new Set(walked).size, 120, 'every row once, none repeated')
  t.ok(first.rows.every((r) => r.client_id === client && r.org_id === a.orgId))

  const small: number[] = []
  let offset: number | undefined = 0
  let pages = 0
  while (offset !== undefined) {
    const p: Page = await page(t, ts, `/api/v1/db/client_locations?limit=50&offset=${offset}`, a.key)
    t.equal(p.limit, 50)
    t.equal(p.offset, offset)
    small.push(...ids(p))
    offset = p.next_offset
    pages++
  }
  t.equal(pages, 3, '120 rows in pages of 50')
  t.same(small, walked, 'the same rows in the same order whatever the page size')
  const max = await page(t, ts, `/api/v1/db/client_locations?limit=${DB_MAX_LIMIT}`, ts.platformKey)
  t.equal(max.rows.length, 121, "the platform key sees both organizations' locations")
  const beyond = await page(t, ts, '/api/v1/db/client_locations?offset=1000', a.key)
  t.same(beyond.rows, [], 'an offset past the end is an empty page')
})

t.test('every allow-listed table and column exists in the read models, with a type that fits', async (t) => {
  const ts = await startTestSystem(t)
  const { rows } = await ts.database.pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `select table_name, column_name, data_type, is_nullable from information_schema.columns where table_schema = 'read_models'`,
  )
  const actual = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r]))
  const fits: Record<string, string[]> = {
    id: ['bigint'],
    int: ['integer', 'bigint'],
    text: ['text'],
    bool: ['boolean'],
    timestamp: ['timestamp with time zone'],
    uuid: ['uuid'],
    'text[]': ['ARRAY'],
    json: ['jsonb', 'json'],
  }
  for (const [table, spec] of Object.entries(DB_TABLES)) {
    for (const [column, c] of Object.entries(spec.columns)) {
      const found = actual.get(`${table}.${column}`)
      t.ok(found, `${table}.${column} exists`)
      if (!found) continue
      t.ok(fits[c.type]!.includes(found.data_type), `${table}.${column}: ${c.type} fits ${found.data_type}`)
      if (found.is_nullable === 'YES' && c.type !== 'json')
        t.ok(c.nullable, `${table}.${column} can be null and says so (where_${column}=null)`)
    }
    for (const column of Object.keys(spec.withheld)) t.ok(actual.has(`${table}.${column}`), `withheld ${table}.${column} exists`)
    for (const column of spec.orderBy) t.ok(Object.hasOwn(spec.columns, column), `${table} orders by a listed column (${column})`)
    if (spec.scope.kind === 'column') t.ok(actual.has(`${table}.${spec.scope.column}`), `${table} is scoped by an existing column`)
    else t.ok(Object.hasOwn(spec.columns, spec.scope.column), `${table} is scoped through a listed client column`)
  }
})
