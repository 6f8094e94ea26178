/**
 * get_entity_changes and get_entity_changes_between through HTTP: changes made through the RPCs by two keys
 * of one organization on either side of a month boundary, read back with actors, records, actions and the
 * changed fields' before and after; the actions filter, day windows, pagination, refused windows, and another
 * organization's client answering like a missing one.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, keyFor, orgWithKey } from './helpers.js'

let now = new Date('2026-03-31T22:00:00.000Z')
const ts = await startTestSystem(t, { clock: () => now })
const org = await orgWithKey(ts, 'Acme')
const second = await keyFor(ts, org.orgId, 'read,write', 'second key')
const other = await orgWithKey(ts, 'Other')

interface Change {
  event_id: string
  occurred_at: string
  actor: { kind: string; id: string | null }
  entity_type: string
  entity_id: number | string | null
  entity_ids: (number | string)[] | null
  action: string
  event_type: string
  stream: string
  changes: { field: string; before: unknown; after: unknown }[]
}

// March 31st, by the first key: the client, a keyword; by the second: a page.
const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
const keywordId = await ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: 'drain cleaning' } }, org.key)
const url = 'https://acme-plumbing.example.com/drains'
const pageId = await ts.call<number>('add_page', { page: { client_id: clientId, url, title: 'Drains' } }, second.key)
// April 1st: the second key retitles the page, the first deletes the keyword.
now = new Date('2026-04-01T00:30:00.000Z')
await ts.call('add_page', { page: { client_id: clientId, url, title: 'Drain cleaning in Austin' } }, second.key)
now = new Date('2026-04-01T09:00:00.000Z')
await ts.call('delete_keyword', { keyword_id: keywordId }, org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)

const changes = (params: Record<string, unknown>, key = org.key) =>
  ts.call<Change[]>('get_entity_changes', { client_id: clientId, ...params }, key)
const between = (params: Record<string, unknown>, key = org.key) =>
  ts.call<Change[]>('get_entity_changes_between', { client_id: clientId, ...params }, key)

t.test('a month: its changes, newest first, with actor, record and action', async (t) => {
  const march = await changes({ month: '2026-03' })
  t.ok(
    march.every((c) => c.occurred_at.startsWith('2026-03-31')),
    'only March',
  )
  const added = march.find((c) => c.event_type === 'PageAdded')!
  t.match(added, { entity_type: 'page', entity_id: pageId, action: 'created', actor: { kind: 'api_key', id: String(second.id) } })
  t.match(added.changes, [{ field: 'url', before: null, after: url }], 'a created record: every field, nothing before')
  const keyword = march.find((c) => c.event_type === 'KeywordAdded')!
  t.match(keyword, { entity_type: 'keyword', entity_id: keywordId, action: 'created', actor: { kind: 'api_key', id: String(org.keyId) } })
  t.ok(
    march.some((c) => c.event_type === 'ClientAdded' && c.entity_type === 'client' && c.entity_id === clientId),
    'the client itself',
  )
  const times = march.map((c) => c.occurred_at)
  t.same(times, [...times].sort().reverse(), 'newest first')

  const april = await changes({ month: '2026-04' })
  t.same(
    april.map((c) => [c.event_type, c.action]),
    [
      ['KeywordDeleted', 'deleted'],
      ['PageUpdated', 'updated'],
    ],
  )
})

t.test("an update's changed fields, before and after, from the stream's earlier events", async (t) => {
  const [update] = await changes({ month: '2026-04', actions: ['updated'] })
  t.match(update, { event_type: 'PageUpdated', entity_type: 'page', entity_id: pageId, actor: { id: String(second.id) } })
  t.same(update!.changes, [{ field: 'title', before: 'Drains', after: 'Drain cleaning in Austin' }], 'only the title changed')
})

t.test('the actions filter', async (t) => {
  const deleted = await changes({ month: '2026-04', actions: ['deleted'] })
  t.same(
    deleted.map((c) => c.event_type),
    ['KeywordDeleted'],
  )
  const created = await between({ start: '2026-03-01', end: '2026-04-30', actions: ['created', 'restored'] })
  t.ok(created.length >= 3, 'the client, the keyword and the page')
  t.ok(
    created.every((c) => c.action === 'created'),
    'nothing but created',
  )
  const refused = await ts.rpc('get_entity_changes', { client_id: clientId, month: '2026-04', actions: ['exploded'] }, org.key)
  expectError(t, refused, 400, 'validation_failed')
})

t.test('day windows include both ends and stop at the month boundary', async (t) => {
  const lastOfMarch = await between({ start: '2026-03-31', end: '2026-03-31' })
  const firstOfApril = await between({ start: '2026-04-01', end: '2026-04-01' })
  const both = await between({ start: '2026-03-31', end: '2026-04-01' })
  t.ok(lastOfMarch.length > 0 && firstOfApril.length === 2)
  t.equal(both.length, lastOfMarch.length + firstOfApril.length)
  t.same(await between({ start: '2026-04-02', end: '2026-04-30' }), [])
  expectError(
    t,
    await ts.rpc('get_entity_changes_between', { client_id: clientId, start: '2026-04-02', end: '2026-04-01' }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('get_entity_changes_between', { client_id: clientId, start: '2025-01-01', end: '2026-04-01' }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('get_entity_changes_between', { client_id: clientId, start: '2026-02-30', end: '2026-03-01' }, org.key),
    400,
    'validation_failed',
  )
})

t.test('pages of a list', async (t) => {
  const all = await between({ start: '2026-03-31', end: '2026-04-01' })
  const first = await between({ start: '2026-03-31', end: '2026-04-01', limit: 2 })
  const rest = await between({ start: '2026-03-31', end: '2026-04-01', limit: 200, offset: 2 })
  t.same(
    [...first, ...rest].map((c) => c.event_id),
    all.map((c) => c.event_id),
  )
})

t.test("another organization's client and a missing one answer alike", async (t) => {
  expectError(t, await ts.rpc('get_entity_changes', { client_id: foreignClient, month: '2026-03' }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_entity_changes', { client_id: 999_999, month: '2026-03' }, org.key), 404, 'not_found')
  expectError(
    t,
    await ts.rpc('get_entity_changes_between', { client_id: clientId, start: '2026-03-01', end: '2026-03-31' }, other.key),
    404,
    'not_found',
  )
  const theirs = await ts.call<Change[]>('get_entity_changes', { client_id: foreignClient, month: '2026-04' }, other.key)
  t.ok(
    theirs.every((c) => c.stream !== `keywords-${clientId}`),
    "another organization's view has none of this client's changes",
  )
})
