/**
 * Keywords through the RPCs: get-or-create by normalized text, the keyword object's defaults, listing with
 * and without deleted keywords, soft delete (and bringing a deleted keyword back), lookup by text across the
 * organization's clients, refused input, deleted clients, and no leak of another organization's keywords.
 */
import t from 'tap'
import { keywordSetStream } from '../../domain/keywords/keyword-set.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

interface Keyword {
  id: number
  client_id: number
  keyword: string
  source: string
  service: string
  location: string
  status: 'active' | 'deleted'
  created_at: string
  updated_at: string
  deleted_at: string | null
}

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const plumbers = await ts.call<number>(
  'add_client',
  clientPayload('Acme Plumbing', { services: ['Drain cleaning'], locations: ['Austin, TX'] }),
  org.key,
)
const roofers = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)

t.test('add_keyword is get-or-create by normalized text within the client', async (t) => {
  const id = await ts.call<number>(
    'add_keyword',
    { keyword: { client_id: plumbers, keyword: '  Drain  Cleaning Austin ', service: 'Drain cleaning', location: 'Austin, TX' } },
    org.key,
  )
  const keyword = await ts.call<Keyword>('get_keyword', { keyword_id: id }, org.key)
  t.match(keyword, {
    id,
    client_id: plumbers,
    keyword: 'Drain Cleaning Austin',
    source: 'manual',
    service: 'Drain cleaning',
    location: 'Austin, TX',
    status: 'active',
    deleted_at: null,
  })
  const before = await eventCount(ts)
  t.equal(
    await ts.call<number>('add_keyword', { keyword: { client_id: plumbers, keyword: 'drain cleaning, AUSTIN!' } }, org.key),
    id,
    'same phrase: same id',
  )
  t.equal(await eventCount(ts), before, 'an existing keyword appends nothing')
  const second = await ts.call<number>(
    'add_keyword',
    { keyword: { client_id: roofers, keyword: 'drain cleaning austin', source: 'generated' } },
    org.key,
  )
  t.not(second, id, 'another client tracks its own copy')
  t.match(
    await ts.call<Keyword>('get_keyword', { keyword_id: second }, org.key),
    { source: 'generated', service: '', location: '' },
    'defaults and source',
  )
})

t.test('get_keywords_for_client lists in added order; delete is soft and add brings it back', async (t) => {
  const ids: number[] = []
  for (const text of ['plumber near me', 'emergency plumber austin', 'water heater repair']) {
    ids.push(await ts.call<number>('add_keyword', { keyword: { client_id: plumbers, keyword: text } }, org.key))
  }
  const deleted = await ts.call<Keyword>('delete_keyword', { keyword_id: ids[1] }, org.key)
  t.match(deleted, { id: ids[1], status: 'deleted', deleted_at: String })
  const again = await ts.call<Keyword>('delete_keyword', { keyword_id: ids[1] }, org.key)
  t.same(again, deleted, 'deleting again changes nothing')
  t.equal((await streamEvents(ts, keywordSetStream(plumbers))).filter((e) => e.type === 'KeywordDeleted').length, 1, 'one delete event')

  const active = await ts.call<Keyword[]>('get_keywords_for_client', { client_id: plumbers }, org.key)
  t.same(
    active.map((k) => k.keyword),
    ['Drain Cleaning Austin', 'plumber near me', 'water heater repair'],
    'active only by default, oldest first',
  )
  const all = await ts.call<Keyword[]>('get_keywords_for_client', { client_id: plumbers, active_only: false }, org.key)
  t.same(
    all.map((k) => [k.keyword, k.status]),
    [
      ['Drain Cleaning Austin', 'active'],
      ['plumber near me', 'active'],
      ['emergency plumber austin', 'deleted'],
      ['water heater repair', 'active'],
    ],
  )
  t.same(
    (await ts.call<Keyword[]>('get_keywords_for_client', { client_id: plumbers, active_only: false, limit: 2, offset: 1 }, org.key)).map(
      (k) => k.id,
    ),
    [ids[0], ids[1]],
    'pages',
  )
  t.same(
    await ts.call('get_keyword_ids_by_text', { keyword_text: 'Emergency plumber Austin' }, org.key),
    [],
    'a deleted keyword is not found by text',
  )

  const back = await ts.call<number>('add_keyword', { keyword: { client_id: plumbers, keyword: 'Emergency Plumber Austin' } }, org.key)
  t.equal(back, ids[1], 'adding the phrase again brings the same keyword back')
  t.match(await ts.call<Keyword>('get_keyword', { keyword_id: back }, org.key), {
    status: 'active',
    deleted_at: null,
    keyword: 'emergency plumber austin',
  })
})

t.test('get_keyword_ids_by_text finds the phrase across the organization, never another one', async (t) => {
  await ts.call('add_keyword', { keyword: { client_id: foreignClient, keyword: 'drain cleaning austin' } }, other.key)
  const mine = await ts.call<number[]>('get_keyword_ids_by_text', { keyword_text: 'DRAIN cleaning austin' }, org.key)
  t.equal(mine.length, 2, "both of the organization's clients")
  for (const id of mine)
    t.equal((await ts.call<Keyword>('get_keyword', { keyword_id: id }, org.key)).keyword.toLowerCase(), 'drain cleaning austin')
  t.equal(
    (await ts.call<number[]>('get_keyword_ids_by_text', { keyword_text: 'drain cleaning austin' }, other.key)).length,
    1,
    'the other organization sees its own',
  )
  t.equal(
    (await ts.call<number[]>('get_keyword_ids_by_text', { keyword_text: 'drain cleaning austin' })).length,
    3,
    'a platform key without org_id: every organization',
  )
  t.same(await ts.call('get_keyword_ids_by_text', { keyword_text: 'never tracked' }, org.key), [])
  expectError(t, await ts.rpc('get_keyword_ids_by_text', { keyword_text: '?!' }, org.key), 400, 'validation_failed')
})

t.test("another organization's keyword answers exactly like a missing one", async (t) => {
  const [foreign] = await ts.call<number[]>('get_keyword_ids_by_text', { keyword_text: 'drain cleaning austin' }, other.key)
  const missing = 987654
  for (const method of ['get_keyword', 'delete_keyword']) {
    const a = expectError(t, await ts.rpc(method, { keyword_id: foreign }, org.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, { keyword_id: missing }, org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, [foreign!]), withoutIds(b, [missing]), `${method}: same body`)
  }
  const a = expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: foreignClient, keyword: 'x y' } }, org.key),
    404,
    'not_found',
  )
  const b = expectError(t, await ts.rpc('add_keyword', { keyword: { client_id: 987655, keyword: 'x y' } }, org.key), 404, 'not_found')
  t.same(withoutIds(a, [foreignClient]), withoutIds(b, [987655]), 'add_keyword on a foreign client')
  expectError(t, await ts.rpc('get_keywords_for_client', { client_id: foreignClient }, org.key), 404, 'not_found')
})

t.test('refused input and deleted clients change nothing', async (t) => {
  const before = await eventCount(ts)
  expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: plumbers, keyword: '   ' } }, org.key),
    400,
    'validation_failed',
    'empty',
  )
  expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: plumbers, keyword: '--' } }, org.key),
    400,
    'validation_failed',
    'no words',
  )
  expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: plumbers, keyword: 'x'.repeat(101) } }, org.key),
    400,
    'validation_failed',
    'too long',
  )
  expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: plumbers, keyword: 'ok', source: 'scraped' } }, org.key),
    400,
    'validation_failed',
    'source',
  )
  expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: plumbers, keyword: 'ok', extra: 1 } }, org.key),
    400,
    'validation_failed',
    'unknown field',
  )
  expectError(
    t,
    await ts.rpc('add_keyword', { client_id: plumbers, keyword: 'ok' }, org.key),
    400,
    'validation_failed',
    'not a keyword object',
  )
  t.equal(await eventCount(ts), before, 'nothing appended')

  const kept = await ts.call<number>('add_keyword', { keyword: { client_id: roofers, keyword: 'roof repair' } }, org.key)
  await ts.call('set_client_status', { client_id: roofers, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('add_keyword', { keyword: { client_id: roofers, keyword: 'new roof' } }, org.key), 409, 'client_deleted')
  expectError(t, await ts.rpc('delete_keyword', { keyword_id: kept }, org.key), 409, 'client_deleted')
  t.equal(
    (await ts.call<Keyword>('get_keyword', { keyword_id: kept }, org.key)).status,
    'active',
    "a deleted client's keywords stay readable",
  )

  const readOnly = await ts.call<{ key: string }>('create_api_key', { name: 'ro', org_id: org.orgId, scopes: 'read' })
  expectError(
    t,
    await ts.rpc('add_keyword', { keyword: { client_id: plumbers, keyword: 'ok then' } }, readOnly.key),
    403,
    'insufficient_scope',
  )
})
