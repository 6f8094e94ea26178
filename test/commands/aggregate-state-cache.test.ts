/**
 * The command handler's aggregate state cache (commands/aggregate-state-cache.ts): a command on a known
 * stream decides without reading it, yet every answer is the one a full read would give, also when another
 * process (here: another store on the same database, with its own cache) wrote in between; and the cache
 * stays bounded.
 */
import t from 'tap'
import { PostgresEventStore } from '../../commands/event-store/postgres.js'
import { RecordingEventStore } from '../../commands/event-store/recording.js'
import { aggregateStateCacheOf, AggregateStateCache } from '../../commands/aggregate-state-cache.js'
import { handleCommand, loadState, systemContext, type WriteDeps } from '../../commands/command-handler.js'
import type { EventStore } from '../../commands/event-store/port.js'
import { client, clientStream, type ClientCommand } from '../../domain/clients/client.js'
import { createTestDatabase } from '../support/database.js'

const CLIENT = 7
const stream = clientStream(CLIENT)

/** The store, counting its stream reads (and from which revision each started). */
function counted(store: PostgresEventStore): { store: PostgresEventStore; reads: (bigint | undefined)[] } {
  const reads: (bigint | undefined)[] = []
  const readStream = store.readStream.bind(store)
  store.readStream = (name, options) => {
    if (name === stream) reads.push(options?.fromRevision)
    return readStream(name, options)
  }
  return { store, reads }
}

function deps(store: EventStore): WriteDeps {
  return { store, ids: { next: async () => 1, nextMany: async () => [] }, clock: () => new Date('2026-11-26T00:00:00Z') }
}

const run = (store: EventStore, command: ClientCommand) =>
  handleCommand(deps(store), { aggregate: client, id: CLIENT, command, context: systemContext('test') })

const setting = (key: string, value: string): ClientCommand => ({
  type: 'SetClientSetting',
  client_id: CLIENT,
  key,
  value,
  caller_org_id: null,
})

t.test('a second process writing in between is seen: refused append, read forward, right state', async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const a = counted(new PostgresEventStore({ connectionString: url, pool }))
  const b = new PostgresEventStore({ connectionString: url, pool })
  t.teardown(async () => {
    await a.store.close()
    await b.close()
  })

  await run(a.store, {
    type: 'AddClient',
    client_id: CLIENT,
    org_id: 3,
    name: 'Acme',
    website_url: 'https://acme.test',
    slug: 'acme',
    status: 'active',
    services: [],
    locations: [],
    settings: {},
  })
  t.same(a.reads, [undefined], 'an unknown stream is read in full')
  await run(a.store, setting('a', '1'))
  t.same(a.reads, [undefined], 'a known stream is not read: the append proves the state current')

  await run(b, setting('b', '2'))
  const third = await run(a.store, setting('c', '3'))
  t.same(third.state.settings, { a: '1', b: '2', c: '3' }, "the other process's write is in the state")
  t.same(a.reads, [undefined, 2n], 'after the refused append, read forward from the cached revision only')

  // A no-op on a stale state is not trusted: b set `a` to 9, so a's `a = 1` is a change after all.
  await run(b, setting('a', '9'))
  const change = await run(a.store, setting('a', '1'))
  t.equal(change.events.length, 1, 'a stale no-op reads forward and then appends')
  t.same(change.state.settings, { a: '1', b: '2', c: '3' })

  // Nor is a domain error: b restores the client a saw deleted.
  await run(a.store, { type: 'SetClientStatus', client_id: CLIENT, status: 'deleted', caller_org_id: null })
  await run(b, { type: 'SetClientStatus', client_id: CLIENT, status: 'active', caller_org_id: null })
  const afterRestore = await run(a.store, setting('d', '4'))
  t.equal(afterRestore.events.length, 1, 'a stale "deleted" error reads forward and then appends')

  // A real no-op (the value b just wrote) still answers without appending.
  await run(b, setting('e', '5'))
  const noop = await run(a.store, setting('e', '5'))
  t.same(noop.events, [], 'a current no-op appends nothing')
  t.equal(noop.position, null)

  const full = await loadState(new PostgresEventStore({ connectionString: url, pool }), client, CLIENT)
  t.same(noop.state, full, 'the cached state is the state a full read folds')
  t.same(aggregateStateCacheOf(a.store).get(stream, client), { state: full, revision: 9n, aggregate: client, weight: 10 })

  // loadState (reads outside a command) always reads to the end, from after the cached revision.
  await run(b, setting('f', '6'))
  const loaded = await loadState(a.store, client, CLIENT)
  t.same(loaded.settings, { ...full.settings, f: '6' })
  t.equal(a.reads[a.reads.length - 1], 10n, 'loadState reads forward from the cached revision')
})

t.test('the cache belongs to the store that owns the log, not to a per-request view', async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const store = new PostgresEventStore({ connectionString: url, pool })
  const other = new PostgresEventStore({ connectionString: url, pool })
  t.teardown(async () => {
    await store.close()
    await other.close()
  })
  t.equal(aggregateStateCacheOf(new RecordingEventStore(store)), aggregateStateCacheOf(store))
  t.not(aggregateStateCacheOf(other), aggregateStateCacheOf(store), 'each store its own (tests open many, one database each)')
})

t.test('bounded by streams and by folded events, least recently used first', async (t) => {
  const agg = {}
  const cache = new AggregateStateCache(3, 20)
  for (const name of ['s1', 's2', 's3']) cache.put(name, agg, name, 0n)
  cache.get('s1', agg)
  cache.put('s4', agg, 's4', 0n)
  t.equal(cache.size, 3)
  t.equal(cache.get('s2', agg), undefined, 'the least recently used went')
  t.ok(cache.get('s1', agg), 'a read keeps an entry')

  cache.put('big', agg, 'big', 15n)
  t.ok(cache.events <= 20, `events bounded (${cache.events})`)
  t.ok(cache.size <= 3)
  cache.put('huge', agg, 'huge', 20n)
  t.equal(cache.get('huge', agg), undefined, 'a stream heavier than the whole budget is not kept')

  cache.put('big', agg, 'newer', 16n)
  cache.put('big', agg, 'older', 15n)
  t.equal(cache.get<string>('big', agg)?.state, 'newer', 'a late, older revision never replaces a newer one')
  t.equal(cache.get('big', {}), undefined, 'another aggregate folding the same stream is another state')

  for (let i = 0; i < 1000; i++) cache.put(`n${i}`, agg, i, BigInt(i % 7))
  t.ok(cache.size <= 3 && cache.events <= 20, 'stays bounded')
})

t.test('under npm test a cached state is frozen, so an aggregate that mutates one fails loudly', async (t) => {
  t.equal(process.env.RR_FREEZE_AGGREGATE_STATES, '1', 'test/run.ts sets the flag for every test file')
  const cache = new AggregateStateCache()
  const aggregate = {}
  const state = { name: 'a', items: new Map([['k', { n: 1 }]]), seen: new Set([1]), list: [{ n: 2 }] }
  cache.put('s', aggregate, state, 0n)
  t.throws(() => ((state as { name: string }).name = 'b'), TypeError)
  t.throws(() => state.items.set('j', { n: 3 }), TypeError)
  t.throws(() => state.seen.add(2), TypeError)
  t.throws(() => state.list.push({ n: 4 }), TypeError)
  t.throws(() => ((state.items.get('k') as { n: number }).n = 5), TypeError)
  t.same(cache.get('s', aggregate)?.state, { name: 'a', items: new Map([['k', { n: 1 }]]), seen: new Set([1]), list: [{ n: 2 }] })
})
