/**
 * Blue/green rebuild (DESIGN.md, "Projections"): a rebuild from position zero equals what the live runner
 * built incrementally; a rebuild under concurrent writes swaps without losing or hiding a write and the
 * live runner keeps going; only one rebuild runs at a time; progress is reported.
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import t from 'tap'
import type { EventStore, ReadAllOptions } from '../../commands/event-store/port.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { MAIN_GROUP, projectors } from '../../projections/index.js'
import { NEXT_SCHEMA, RebuildInProgressError, rebuildReadModels, type RebuildProgress } from '../../projections/rebuild.js'
import { createOrgWithKey, startTestSystem, type TestSystem } from '../support/system.js'
import { countEvents, dumpSchema, projectOnce, readCheckpointRow, readLog, schemaExistsNamed, sleep, waitForCatchUp } from './helpers.js'

const RETIRED_SCHEMA = 'read_models_retired'

/** A view of a store whose readAll first awaits `beforeRead` (to hold a rebuild at a chosen point). */
class GatedStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    readonly beforeRead: () => Promise<void>,
  ) {}

  async *readAll(options?: ReadAllOptions) {
    await this.beforeRead()
    yield* this.inner.readAll(options)
  }

  append: EventStore['append'] = (stream, events, expected) => this.inner.append(stream, events, expected)
  readStream: EventStore['readStream'] = (stream, options) => this.inner.readStream(stream, options)
  subscribeToAll: EventStore['subscribeToAll'] = (options) => this.inner.subscribeToAll(options)
  comparePositions: EventStore['comparePositions'] = (a, b) => this.inner.comparePositions(a, b)
  headPosition: EventStore['headPosition'] = () => this.inner.headPosition()
  countAfter: EventStore['countAfter'] = (after) => this.inner.countAfter(after)
  async close(): Promise<void> {}
}

function rebuild(ts: TestSystem, extra: { store?: EventStore; batchSize?: number; onProgress?: (p: RebuildProgress) => void } = {}) {
  return rebuildReadModels({
    store: extra.store ?? ts.system.store,
    db: ts.system.database.db,
    projectors,
    group: MAIN_GROUP,
    progressEveryMs: 0,
    ...(extra.batchSize === undefined ? {} : { batchSize: extra.batchSize }),
    ...(extra.onProgress === undefined ? {} : { onProgress: extra.onProgress }),
  })
}

// ---------------------------------------------------------------------------------------------------------
// Random write commands, interpreted against whatever exists when they run.

const STATUSES = ['active', 'paused', 'staging', 'deleted'] as const
const NAMES = ['Alpha', 'beta', 'ALPHA', 'Gamma  Ray', 'gamma ray']
const PLACES = ['Austin, TX', 'Dallas, TX, US', 'austin, tx', 'Reno']
const SLUGS = ['', 'one', 'two']
const KEYS = ['attention_flag', 'tier']
const VALUES = ['', 'x', 'y']

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!
const subset = <T>(list: readonly T[]) => fc.subarray([...list], { maxLength: 3 })

const commandArb = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('org' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('client' as const),
      org: fc.nat(),
      status: fc.constantFrom(...STATUSES),
      services: subset(NAMES),
      locations: subset(PLACES),
      slug: fc.constantFrom(...SLUGS),
      setting: fc.option(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)), { nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      client: fc.nat(),
      name: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
      url: fc.option(fc.constantFrom('https://a.example.com', 'https://b.example.com/x'), { nil: undefined }),
      slug: fc.option(fc.constantFrom(...SLUGS), { nil: undefined }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('status' as const), client: fc.nat(), status: fc.constantFrom(...STATUSES) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('setting' as const),
      client: fc.nat(),
      key: fc.constantFrom(...KEYS),
      value: fc.constantFrom(...VALUES),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('service' as const), client: fc.nat(), name: fc.constantFrom(...NAMES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('location' as const), client: fc.nat(), name: fc.constantFrom(...PLACES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropLocations' as const), client: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('key' as const), org: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), key: fc.nat() }) },
)
type Command = typeof commandArb extends fc.Arbitrary<infer C> ? C : never

interface World {
  orgs: number[]
  orgKeys: Map<number, string>
  clients: number[]
  keys: number[]
}

/**
 * Runs one command through the RPCs. Domain refusals (4xx: a deleted client, a taken slug) are part of
 * the game; a 5xx is not. Returns a description for failure reports.
 */
async function execute(ts: TestSystem, world: World, command: Command): Promise<string> {
  const asOrg = (orgId: number) => world.orgKeys.get(orgId) ?? ts.platformKey
  const clientFor = async (i: number): Promise<number | undefined> => (world.clients.length > 0 ? pick(world.clients, i) : undefined)
  let method: string
  let body: Record<string, unknown>
  let key = ts.platformKey
  switch (command.kind) {
    case 'org':
      method = 'create_organization'
      body = { name: `Org ${world.orgs.length + 1}` }
      break
    case 'client': {
      const org = pick(world.orgs, command.org)
      method = 'add_client'
      key = asOrg(org)
      body = {
        client: {
          name: `Client ${world.clients.length + 1}`,
          website_url: `https://c${world.clients.length + 1}.example.com`,
          status: command.status,
          services: command.services,
          locations: command.locations,
          slug: command.slug,
          settings: command.setting ? { [command.setting[0]]: command.setting[1] } : {},
        },
      }
      break
    }
    case 'key':
      method = 'create_api_key'
      body = { name: 'extra', org_id: pick(world.orgs, command.org) }
      break
    case 'revoke':
      if (world.keys.length === 0) return 'revoke: no key yet'
      method = 'revoke_api_key'
      body = { key_id: pick(world.keys, command.key) }
      break
    default: {
      const client = await clientFor(command.client)
      if (client === undefined) return `${command.kind}: no client with room`
      switch (command.kind) {
        case 'update':
          method = 'update_client'
          body = { client_id: client }
          if (command.name !== undefined) body.name = command.name
          if (command.url !== undefined) body.website_url = command.url
          if (command.slug !== undefined) body.slug = command.slug
          break
        case 'status':
          method = 'set_client_status'
          body = { client_id: client, status: command.status }
          break
        case 'setting':
          method = 'set_client_setting'
          body = { client_id: client, key: command.key, value: command.value }
          break
        case 'service':
          method = 'add_service'
          body = { service: { client_id: client, name: command.name } }
          break
        case 'location':
          method = 'add_location'
          body = { location: { client_id: client, name: command.name } }
          break
        case 'dropLocations':
          method = 'delete_locations_for_client'
          body = { client_id: client }
          break
      }
    }
  }
  const response = await ts.rpc(method, body, key)
  const described = `${method} ${JSON.stringify(body)} → ${response.statusCode}`
  if (response.statusCode >= 500) throw new Error(`${described}: ${response.body}`)
  if (response.statusCode === 200) {
    const header = response.headers['x-read-your-writes']
    if (header !== undefined && header !== 'reached') throw new Error(`${described}: x-read-your-writes ${String(header)}`)
    const result = response.json().result
    if (method === 'create_organization') {
      world.orgs.push(result)
      const created = await ts.call<{ key: string }>('create_api_key', { name: 'org key', org_id: result })
      world.orgKeys.set(result, created.key)
    }
    if (method === 'add_client') world.clients.push(result)
    if (method === 'create_api_key') world.keys.push(result.id)
  }
  return described
}

t.test('rebuild equals incremental, for random command sequences', async (t) => {
  let runs = 0
  await fc.assert(
    fc.asyncProperty(fc.array(commandArb, { minLength: 8, maxLength: 25, size: 'max' }), async (commands) => {
      runs++
      // A fresh system per run, torn down at the end of the run (not of the whole test).
      const teardowns: (() => unknown)[] = []
      try {
        const ts = await startTestSystem({ teardown: (fn) => teardowns.push(fn) })
        const { orgId, key } = await createOrgWithKey(ts)
        const seed = await ts.call<number>(
          'add_client',
          { client: { name: 'Seed', website_url: 'https://seed.example.com', locations: ['Reno'] } },
          key,
        )
        const world: World = { orgs: [orgId], orgKeys: new Map([[orgId, key]]), clients: [seed], keys: [] }
        for (const command of commands) await execute(ts, world, command)

        const db = ts.system.database.db
        await waitForCatchUp(ts.system.store, db)
        const omit = { projection_checkpoint: ['updated_at'] }
        const incremental = await dumpSchema(db, LIVE_SCHEMA, omit)
        const total = await countEvents(db)
        if (incremental.projection_checkpoint![0]!.events_applied !== total)
          throw new Error('incremental checkpoint does not count every event')

        const done = await rebuild(ts, { batchSize: 7 })
        const rebuilt = await dumpSchema(db, LIVE_SCHEMA, omit)
        assert.deepStrictEqual(rebuilt, incremental, `run ${runs}: ${commands.length} commands, ${total} events`)
        assert.equal(done.eventsDone, total, 'the rebuild reports every event')
        t.pass(`run ${runs}: ${commands.length} commands, ${total} events: rebuilt rows equal incremental ones`)
      } finally {
        for (const fn of teardowns.reverse()) await fn()
      }
    }),
    { numRuns: 6 },
  )
  t.equal(runs, 6, 'every run compared')
})

t.test('rebuild while writes continue: nothing lost, the runner keeps going, the old schema is gone', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  const { key } = await createOrgWithKey(ts)
  type Phase = 'before' | 'during' | 'after'
  let phase: Phase = 'before'
  const written: { id: number; name: string; started: Phase; ended: Phase; header: unknown }[] = []
  const failures: string[] = []

  const addClient = async (name: string) => {
    const started = phase
    const response = await ts.rpc(
      'add_client',
      { client: { name, website_url: 'https://w.example.com', services: ['Svc'], locations: ['Austin, TX'], settings: { tier: name } } },
      key,
    )
    if (response.statusCode !== 200) {
      failures.push(`${name}: ${response.statusCode} ${response.body}`)
      return
    }
    written.push({ id: response.json().result, name, started, ended: phase, header: response.headers['x-read-your-writes'] })
  }
  for (let i = 0; i < 15; i++) await addClient(`before ${i}`)

  let stop = false
  let n = 0
  const writer = (async () => {
    while (!stop) await addClient(`w ${n++}`)
  })()

  const countWhere = (f: (w: (typeof written)[number]) => boolean) => written.filter(f).length
  const until = async (what: string, condition: () => boolean | Promise<boolean>, ms = 10_000) => {
    const deadline = Date.now() + ms
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await sleep(5)
    }
  }

  // Hold the rebuild: its first read waits for three writes made while it runs; the first read of the
  // swap (under the exclusive swap lock) starts one more write and waits until its events are appended.
  const progress: RebuildProgress[] = []
  let swapGateDone = false
  let swapWrite: Promise<void> | undefined
  const gated = new GatedStore(ts.system.store, async () => {
    if (progress.length === 0) {
      await until('writes during the build', () => countWhere((w) => w.started === 'during') >= 3)
    } else if (progress.at(-1)!.phase === 'swapping' && !swapGateDone) {
      swapGateDone = true
      const floor = await countEvents(db)
      swapWrite = addClient('during the swap')
      await until('an append during the swap', async () => (await countEvents(db)) > floor)
    }
  })

  phase = 'during'
  const result = await rebuild(ts, { store: gated, batchSize: 10, onProgress: (p) => progress.push(p) })
  phase = 'after'
  await until('writes after the rebuild', () => countWhere((w) => w.started === 'after') >= 3)
  stop = true
  await writer
  await swapWrite

  t.strictSame(failures, [], 'every write succeeded')
  t.equal(result.phase, 'done')
  t.ok(swapGateDone, 'the swap was held until a concurrent append')
  t.ok(countWhere((w) => w.started === 'during' && w.ended === 'during') >= 3, 'writes started and finished during the rebuild')
  t.ok(countWhere((w) => w.started === 'after') >= 3, 'writes after the rebuild')
  t.strictSame(
    written.filter((w) => w.header !== 'reached').map((w) => `${w.name}: ${String(w.header)}`),
    [],
    'every write saw its projection (x-read-your-writes: reached), during the swap too',
  )

  t.notOk(await schemaExistsNamed(db, RETIRED_SCHEMA), `${RETIRED_SCHEMA} is gone`)
  t.notOk(await schemaExistsNamed(db, NEXT_SCHEMA), `${NEXT_SCHEMA} is gone`)

  // The live runner follows the swapped-in schema: a new write reads back at once.
  const last = await ts.rpc('add_client', { client: { name: 'last one', website_url: 'https://last.example.com' } }, key)
  t.equal(last.headers['x-read-your-writes'], 'reached', 'the runner keeps going after the swap')
  const lastId = last.json().result as number

  for (const w of [...written, { id: lastId, name: 'last one' }]) {
    const response = await ts.rpc('get_client', { client_id: w.id }, key)
    if (response.statusCode !== 200 || response.json().result.name !== w.name) {
      t.fail(`client ${w.id} (${w.name}) is not visible: ${response.statusCode} ${response.body}`)
    }
  }
  const all = await ts.call<unknown[]>('get_all_clients', { include_deleted: true }, key)
  t.equal(all.length, written.length + 1, `all ${written.length + 1} clients listed`)

  await waitForCatchUp(ts.system.store, db)
  const checkpoint = await readCheckpointRow(db)
  t.equal(checkpoint.events_applied, await countEvents(db), 'events_applied equals the number of events in es_events')
  t.equal(checkpoint.position, await ts.system.store.headPosition(), 'the checkpoint is at the head of the log')

  const omit = { projection_checkpoint: ['updated_at', 'position', 'events_applied'] }
  t.strictSame(
    await dumpSchema(db, LIVE_SCHEMA, omit),
    await projectOnce(db, 'rebuild_reference', await readLog(ts.system.store, ts.system.database.db), omit),
    'the live read models equal one application of the whole log',
  )
  t.comment(`${written.length} concurrent writes; ${result.eventsDone} events rebuilt`)
})

t.test('one rebuild at a time, with progress', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  const { key } = await createOrgWithKey(ts)
  for (let i = 0; i < 6; i++) {
    await ts.call(
      'add_client',
      { client: { name: `c${i}`, website_url: 'https://c.example.com', services: ['A', 'B'], locations: ['Reno'] } },
      key,
    )
  }
  const total = await countEvents(db)

  let entered!: () => void
  const enteredPromise = new Promise<void>((resolve) => (entered = resolve))
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let first = true
  const gated = new GatedStore(ts.system.store, async () => {
    if (!first) return
    first = false
    entered()
    await released
  })
  const progress: RebuildProgress[] = []
  const running = rebuild(ts, { store: gated, batchSize: 7, onProgress: (p) => progress.push(p) })
  await enteredPromise // the first rebuild holds its lock and is reading the log

  let error: unknown
  try {
    await rebuild(ts)
  } catch (caught) {
    error = caught
  }
  t.type(error, RebuildInProgressError, 'a second concurrent rebuild fails with RebuildInProgressError')
  t.ok(await schemaExistsNamed(db, NEXT_SCHEMA), 'and leaves the first rebuild’s schema alone')

  release()
  const result = await running
  t.equal(result.phase, 'done')
  t.equal(result.eventsDone, total, 'eventsDone is the size of the log at the end')
  t.equal(result.eventsTotal, total, 'eventsTotal is the size of the log')
  t.equal(result.etaSeconds, 0)

  const phases = progress.map((p) => p.phase)
  const firstSwap = phases.indexOf('swapping')
  t.ok(firstSwap > 0, 'building is reported before swapping')
  t.ok(
    phases.slice(0, firstSwap).every((p) => p === 'building'),
    'only building before the swap',
  )
  t.strictSame(phases.slice(firstSwap), ['swapping', 'done'], 'then swapping, then done, once each')
  t.ok(phases.filter((p) => p === 'building').length >= Math.floor(total / 7), 'building reported for every page (progressEveryMs 0)')
  const done = progress.map((p) => p.eventsDone)
  t.ok(
    done.every((d, i) => i === 0 || d >= done[i - 1]!),
    'eventsDone never goes backwards',
  )
  t.strictSame(progress.at(-1), result, 'the last report is the result')
  t.ok(
    progress.every((p) => p.eventsTotal === total && p.eventsPerSecond >= 0),
    'eventsTotal and rate in every report',
  )

  // The lock is released: the next rebuild runs.
  const again = await rebuild(ts)
  t.equal(again.eventsDone, total, 'a later rebuild succeeds')
  t.notOk(await schemaExistsNamed(db, RETIRED_SCHEMA))
  t.notOk(await schemaExistsNamed(db, NEXT_SCHEMA))
  const after = await ts.rpc('add_client', { client: { name: 'after', website_url: 'https://after.example.com' } }, key)
  t.equal(after.headers['x-read-your-writes'], 'reached', 'the live runner follows the rebuilt schema')
})
