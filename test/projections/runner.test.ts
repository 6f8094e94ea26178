/**
 * The projection runner (DESIGN.md, "Projections"): a batch and its checkpoint commit together, a new runner
 * resumes from the checkpoint, two runners on one group never apply an event twice, write RPCs answer after
 * their events are projected (read-your-writes), and a watermark without a local runner sees the
 * checkpoint move by polling.
 */
import { sql, type Kysely } from 'kysely'
import pino from 'pino'
import t from 'tap'
import { addClient, setClientSetting } from '../../commands/clients.js'
import { systemContext } from '../../commands/command-handler.js'
import type { EventStore, RecordedEvent } from '../../commands/event-store/port.js'
import { PostgresEventStore } from '../../commands/event-store/postgres.js'
import { createOrganization } from '../../commands/organizations.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { openPool } from '../../ops/postgres.js'
import { applyBatch } from '../../projections/checkpoint.js'
import { MAIN_GROUP, projectors } from '../../projections/index.js'
import type { Projector } from '../../projections/projector.js'
import { ProjectionRunner } from '../../projections/runner.js'
import { ProjectionWatermark } from '../../projections/watermark.js'
import { createOrgWithKey, startTestSystem, type TestSystem } from '../support/system.js'
import {
  countEvents,
  countOrgEvents,
  createScratchSchemas,
  dropSchema,
  dumpSchema,
  projectOnce,
  readCheckpointRow,
  readLog,
  sleep,
  waitForCatchUp,
} from './helpers.js'

const log = pino({ level: 'silent' })
const context = systemContext('runner-test')

/** Another "process": its own pool and event store over the same database. */
function openProcess(url: string): { db: Kysely<any>; store: EventStore; close(): Promise<void> } {
  const database = openPool(url, { max: 5, onError: () => {} })
  const store = new PostgresEventStore({ connectionString: url, pool: database.pool })
  return {
    db: database.db,
    store,
    async close() {
      await store.close()
      await database.close()
    },
  }
}

function runnerFor(
  ts: TestSystem,
  options: { schema?: string; projectors?: readonly Projector[]; batchSize?: number; db?: Kysely<any>; store?: EventStore } = {},
) {
  return new ProjectionRunner({
    store: options.store ?? ts.system.store,
    db: options.db ?? ts.system.database.db,
    projectors: options.projectors ?? projectors,
    group: MAIN_GROUP,
    schema: options.schema ?? LIVE_SCHEMA,
    log,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
  })
}

async function newClient(ts: TestSystem, orgId: number, name: string): Promise<number> {
  const { clientId } = await addClient(ts.system.write, context, {
    orgId,
    name,
    websiteUrl: 'https://r.example.com',
    slug: '',
    status: 'active',
    services: [{ name: 'Svc', description: '' }],
    locations: [],
    settings: { tier: 'a' },
  })
  return clientId
}

/** A projector that counts how often each event is applied, in a table of the schema it writes to. */
async function countingProjector(db: Kysely<any>, schema: string): Promise<Projector> {
  await sql`create table ${sql.id(schema, 'apply_log')} (event_id uuid primary key, n int not null)`.execute(db)
  return {
    name: 'apply_log',
    handles: '*',
    async apply(rdb, events) {
      for (const event of events) {
        await sql`insert into ${sql.id(schema, 'apply_log')} as a (event_id, n) values (${event.id}, 1)
                  on conflict (event_id) do update set n = a.n + 1`.execute(rdb)
      }
    },
  }
}

async function applyCounts(db: Kysely<any>, schema: string): Promise<{ rows: number; max: number }> {
  const { rows } = await sql<{ rows: number; max: number | null }>`
    select count(*)::int as rows, max(n)::int as max from ${sql.id(schema, 'apply_log')}`.execute(db)
  return { rows: rows[0]!.rows, max: rows[0]!.max ?? 0 }
}

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

// ---------------------------------------------------------------------------------------------------------
// (a) one transaction for the batch and its checkpoint; resuming from the checkpoint

t.test('a batch and its checkpoint commit together, or not at all', async (t) => {
  const ts = await startTestSystem(t)
  const { orgId } = await createOrgWithKey(ts)
  for (let i = 0; i < 4; i++) await newClient(ts, orgId, `c${i}`)
  const db = ts.system.database.db
  const events = await readLog(ts.system.store, ts.system.database.db)
  const schema = 'rr_atomic'
  await createScratchSchemas(db, [schema])
  t.teardown(() => dropSchema(db, schema).catch(() => {}))
  const empty = await dumpSchema(db, schema)

  const poison = events[events.length - 2]!
  const failing: Projector = {
    name: 'failing',
    handles: '*',
    async apply(_db, events) {
      for (const event of events) {
        if (event.id === poison.id) throw new Error('projector failure')
      }
    },
  }
  await t.rejects(applyBatch(db, schema, MAIN_GROUP, [...projectors, failing], events, null), /projector failure/)
  t.strictSame(await dumpSchema(db, schema), empty, 'a failed batch leaves no rows and no checkpoint move')

  t.equal(await applyBatch(db, schema, MAIN_GROUP, projectors, events, null), true, 'the batch applies')
  const checkpoint = await readCheckpointRow(db, schema)
  t.strictSame(checkpoint, { position: events.at(-1)!.position, events_applied: events.length })
  const applied = await dumpSchema(db, schema)
  t.equal(await applyBatch(db, schema, MAIN_GROUP, projectors, events, null), false, 'a batch from a stale start is refused')
  t.strictSame(await dumpSchema(db, schema), applied, 'and writes nothing')
})

t.test('a runner whose projector fails keeps rows and checkpoint consistent, then recovers', async (t) => {
  const ts = await startTestSystem(t)
  const { orgId } = await createOrgWithKey(ts)
  for (let i = 0; i < 6; i++) await newClient(ts, orgId, `c${i}`)
  const db = ts.system.database.db
  const events = await readLog(ts.system.store, ts.system.database.db)
  const schema = 'rr_recover'
  await createScratchSchemas(db, [schema])

  // Fails on an event in the middle of a batch, so the batch's earlier events must be rolled back too.
  const poison = events[Math.floor(events.length / 2) + 2]!
  let failing = true
  const failer: Projector = {
    name: 'failer',
    handles: '*',
    async apply(_db, events) {
      for (const event of events) {
        if (failing && event.id === poison.id) throw new Error('projector failure')
      }
    },
  }
  const runner = runnerFor(ts, { schema, projectors: [...projectors, failer], batchSize: 5 })
  const errors: unknown[] = []
  runner.on('error-logged', (error) => errors.push(error))
  runner.start()
  try {
    await until('the runner to fail', () => errors.length > 0)
    const checkpoint = await readCheckpointRow(db, schema)
    const appliedCount = checkpoint.position === null ? 0 : events.findIndex((e) => e.position === checkpoint.position) + 1
    t.ok(appliedCount < events.indexOf(poison) + 1, 'the checkpoint stopped before the failing event')
    t.equal(checkpoint.events_applied, appliedCount, 'events_applied matches the checkpoint position')
    const omit = { projection_checkpoint: ['updated_at', 'position', 'events_applied'] }
    t.strictSame(
      await dumpSchema(db, schema, omit),
      await projectOnce(db, 'rr_recover_ref', events.slice(0, appliedCount), omit),
      'the rows are exactly those of the events up to the checkpoint',
    )

    failing = false
    await waitForCatchUp(ts.system.store, db, schema)
    t.strictSame(
      await dumpSchema(db, schema, omit),
      await projectOnce(db, 'rr_recover_ref', events, omit),
      'after the retry, the rows are those of the whole log',
    )
    t.equal((await readCheckpointRow(db, schema)).events_applied, events.length)
  } finally {
    await runner.stop()
    await dropSchema(db, schema)
  }
})

t.test('a second runner instance resumes from the checkpoint: nothing twice, nothing missed', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  const { orgId, key } = await createOrgWithKey(ts)
  for (let i = 0; i < 3; i++) await ts.call('add_client', { client: { name: `before ${i}`, website_url: 'https://b.example.com' } }, key)
  await waitForCatchUp(ts.system.store, db)

  await ts.system.runner.stop()
  const stopped = await readCheckpointRow(db)
  t.equal(stopped.events_applied, await countEvents(db), 'the first runner had applied everything')

  const appended: number[] = []
  for (let i = 0; i < 5; i++) appended.push(await newClient(ts, orgId, `while stopped ${i}`))
  await createOrganization(ts.system.write, context, { name: 'Org while stopped' })
  await sleep(100)
  t.strictSame(await readCheckpointRow(db), stopped, 'nothing is projected while no runner runs')
  const missing = await ts.rpc('get_client', { client_id: appended[0] }, key)
  t.equal(missing.statusCode, 404, 'the new client is not in the read model yet')

  const second = runnerFor(ts)
  const batches: number[] = []
  second.on('applied', (n: number) => batches.push(n))
  second.start()
  try {
    await waitForCatchUp(ts.system.store, db)
    const total = await countEvents(db)
    const resumed = await readCheckpointRow(db)
    t.equal(resumed.events_applied, total, 'events_applied equals the events in the log')
    t.equal(
      batches.reduce((a, b) => a + b, 0),
      total - stopped.events_applied,
      'the second runner applied exactly the events after the checkpoint',
    )
    t.equal(await ts.call<number>('count_active_clients', {}, key), 8, 'every client is visible')
    const omit = { projection_checkpoint: ['updated_at', 'position', 'events_applied'] }
    t.strictSame(
      await dumpSchema(db, LIVE_SCHEMA, omit),
      await projectOnce(db, 'rr_resume_ref', await readLog(ts.system.store, ts.system.database.db), omit),
      'the read models equal one application of the whole log',
    )
  } finally {
    await second.stop()
  }
})

// ---------------------------------------------------------------------------------------------------------
// (b) two runners on one group

t.test('two runners on the same group at once never apply an event twice', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  const { orgId } = await createOrgWithKey(ts)
  const schema = 'rr_dual'
  await createScratchSchemas(db, [schema])
  const counting = await countingProjector(db, schema)
  const group = [...projectors, counting]

  const processA = openProcess(ts.database.url)
  const processB = openProcess(ts.database.url)
  const runnerA = runnerFor(ts, { schema, projectors: group, db: processA.db, store: processA.store, batchSize: 4 })
  const runnerB = runnerFor(ts, { schema, projectors: group, db: processB.db, store: processB.store, batchSize: 4 })
  const applied = { A: 0, B: 0 }
  runnerA.on('applied', (n: number) => (applied.A += n))
  runnerB.on('applied', (n: number) => (applied.B += n))

  const burst = async (label: string) => {
    // Four concurrent writers: new organizations, clients and settings.
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        for (let i = 0; i < 4; i++) {
          const clientId = await newClient(ts, orgId, `${label} ${w}.${i}`)
          await setClientSetting(ts.system.write, context, { clientId, key: 'tier', value: `${label}-${i}`, callerOrgId: orgId })
          if (i % 2 === 0) await createOrganization(ts.system.write, context, { name: `${label} org ${w}.${i}` })
        }
      }),
    )
  }

  runnerA.start()
  runnerB.start()
  try {
    await burst('first')
    await waitForCatchUp(ts.system.store, db, schema)
    t.ok(applied.A === 0 || applied.B === 0, `only the lock holder applies while both run (A ${applied.A}, B ${applied.B})`)

    // Fail over: stop the holder, write more; the other one takes over (it retries the lock).
    const [holder, other, otherName] = applied.A > 0 ? [runnerA, runnerB, 'B' as const] : [runnerB, runnerA, 'A' as const]
    await holder.stop()
    await burst('second')
    await waitForCatchUp(ts.system.store, db, schema)
    t.ok(applied[otherName] > 0, 'the other runner took over')
    await other.stop()

    const total = await countEvents(db)
    t.equal(applied.A + applied.B, total, 'the two runners together applied each event once')
    t.strictSame(await applyCounts(db, schema), { rows: total, max: 1 }, 'every event applied exactly once')
    t.equal((await readCheckpointRow(db, schema)).events_applied, total, 'events_applied equals the events in the log')
    const { rows } = await sql<{ n: number; distinct: number }>`
      select count(*)::int as n, count(distinct event_id)::int as distinct from ${sql.id(schema, 'org_activity')}`.execute(db)
    t.equal(rows[0]!.n, await countOrgEvents(db), 'org_activity rows equal the number of organization events')
    t.equal(rows[0]!.distinct, rows[0]!.n)
  } finally {
    await runnerA.stop()
    await runnerB.stop()
    await processA.close()
    await processB.close()
    await dropSchema(db, schema)
  }
})

t.test('concurrent batches from the same checkpoint: exactly one commits', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  const { orgId } = await createOrgWithKey(ts)
  for (let i = 0; i < 3; i++) await newClient(ts, orgId, `c${i}`)
  const events: RecordedEvent[] = await readLog(ts.system.store, ts.system.database.db)
  const schema = 'rr_cas'
  await createScratchSchemas(db, [schema])
  const counting = await countingProjector(db, schema)
  try {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => applyBatch(db, schema, MAIN_GROUP, [...projectors, counting], events, null)),
    )
    t.equal(results.filter(Boolean).length, 1, 'one batch wins, the others see the moved checkpoint')
    t.strictSame(await applyCounts(db, schema), { rows: events.length, max: 1 })
    t.equal((await readCheckpointRow(db, schema)).events_applied, events.length)
  } finally {
    await dropSchema(db, schema)
  }
})

// ---------------------------------------------------------------------------------------------------------
// (c) read-your-writes

t.test('read-your-writes: every write answers once projected, and the next read sees it', async (t) => {
  const ts = await startTestSystem(t)
  const { orgId, key } = await createOrgWithKey(ts)
  let writes = 0
  const write = async (method: string, body: unknown, as: string = key) => {
    const response = await ts.rpc(method, body, as)
    t.equal(response.statusCode, 200, `${method} answered 200`)
    t.equal(response.headers['x-read-your-writes'], 'reached', `${method}: x-read-your-writes: reached`)
    writes++
    return response.json().result
  }

  for (let round = 0; round < 3; round++) {
    const clientId = await write('add_client', { client: { name: `Round ${round}`, website_url: 'https://ryw.example.com' } })
    t.match(await ts.call('get_client', { client_id: clientId }, key), { id: clientId, name: `Round ${round}`, status: 'active' })

    await write('update_client', { client_id: clientId, name: `Renamed ${round}`, slug: `renamed-${round}` })
    t.equal((await ts.call('get_client', { client_id: clientId }, key)).name, `Renamed ${round}`)
    t.equal(await ts.call('get_client_id_by_slug', { slug: `renamed-${round}` }, key), clientId)

    const serviceId = await write('add_service', { service: { client_id: clientId, name: `Service ${round}` } })
    t.strictSame(
      (await ts.call<{ id: number }[]>('get_services_for_client', { client_id: clientId }, key)).map((s) => s.id),
      [serviceId],
    )

    const locationId = await write('add_location', { location: { client_id: clientId, city: 'Austin', state: 'TX' } })
    t.strictSame(
      (await ts.call<{ id: number }[]>('get_locations_for_client', { client_id: clientId }, key)).map((l) => l.id),
      [locationId],
    )

    await write('set_client_setting', { client_id: clientId, key: 'attention_flag', value: `flag ${round}` })
    t.equal(await ts.call('get_client_setting', { client_id: clientId, key: 'attention_flag' }, key), `flag ${round}`)
    t.ok((await ts.call<{ client_id: number }[]>('get_attention_flags_for_org', {}, key)).some((f) => f.client_id === clientId))

    t.strictSame(await write('delete_locations_for_client', { client_id: clientId }), { deleted: 1 })
    t.strictSame(await ts.call('get_locations_for_client', { client_id: clientId }, key), [])

    await write('set_client_status', { client_id: clientId, status: 'paused' })
    t.equal((await ts.call('get_client', { client_id: clientId }, key)).status, 'paused')

    await write('set_client_status', { client_id: clientId, status: 'deleted' })
    t.ok((await ts.call<{ id: number }[]>('get_deleted_clients', {}, key)).some((c) => c.id === clientId))

    const created = await write('create_api_key', { name: `key ${round}`, scopes: 'read' })
    t.equal((await ts.call('get_organization', {}, created.key)).id, orgId, 'a new key authenticates at once')

    await write('revoke_api_key', { key_id: created.id })
    t.equal((await ts.rpc('get_organization', {}, created.key)).statusCode, 401, 'a revoked key is refused at once')

    const newOrg = await write('create_organization', { name: `Org ${round}` }, ts.platformKey)
    t.equal((await ts.call('get_organization', { org_id: newOrg })).id, newOrg)
  }
  t.ok(writes >= 30, `${writes} writes, each read back`)
})

t.test('read-your-writes: update_client and set_client_status return the client as written', async (t) => {
  const ts = await startTestSystem(t)
  const { key } = await createOrgWithKey(ts)
  for (let i = 0; i < 5; i++) {
    const clientId = await ts.call<number>('add_client', { client: { name: `Client ${i}`, website_url: 'https://ret.example.com' } }, key)
    const updated = await ts.call('update_client', { client_id: clientId, name: `Renamed ${i}` }, key)
    t.equal(updated.name, `Renamed ${i}`, 'update_client returns the new name')
    const paused = await ts.call('set_client_status', { client_id: clientId, status: 'paused' }, key)
    t.equal(paused.status, 'paused', 'set_client_status returns the new status')
  }
})

t.test('a client with more than 10 events keeps accepting writes', async (t) => {
  const ts = await startTestSystem(t)
  const { key } = await createOrgWithKey(ts)
  const clientId = await ts.call<number>('add_client', { client: { name: 'Long history', website_url: 'https://long.example.com' } }, key)
  for (let i = 0; i < 12; i++) {
    const response = await ts.rpc('set_client_setting', { client_id: clientId, key: 'tier', value: `v${i}` }, key)
    t.equal(response.statusCode, 200, `write ${i + 2} to the stream answers 200`)
    if (response.statusCode !== 200) break
    t.equal(await ts.call('get_client_setting', { client_id: clientId, key: 'tier' }, key), `v${i}`)
  }
  const history = await ts.call<{ revision: number }[]>(
    'get_entity_history',
    { entity_type: 'client', entity_id: clientId, limit: 100 },
    key,
  )
  const revisions = history.map((h) => h.revision)
  t.strictSame(
    revisions,
    [...revisions].sort((a, b) => b - a),
    'history is newest first by revision',
  )
})

t.test('read-your-writes without a runner: the write answers after the bounded wait, saying so', async (t) => {
  const ts = await startTestSystem(t, { runProjections: false, readYourWritesTimeoutMs: 200 })
  const db = ts.system.database.db
  // Project the platform key (auth reads the read model), then stop projecting.
  ts.system.runner.start()
  await waitForCatchUp(ts.system.store, db)
  await ts.system.runner.stop()

  const started = Date.now()
  const response = await ts.rpc('create_organization', { name: 'Unprojected' })
  const elapsed = Date.now() - started
  t.equal(response.statusCode, 200, 'the write succeeds')
  t.equal(response.headers['x-read-your-writes'], 'timeout', 'x-read-your-writes: timeout')
  t.ok(elapsed >= 190, `it waited for the projections (${elapsed} ms)`)
  t.ok(elapsed < 200 + 2500, `and answered within a bounded time (${elapsed} ms)`)
  const orgId = response.json().result as number
  t.equal((await ts.rpc('get_organization', { org_id: orgId })).statusCode, 404, 'the header is honest: not readable yet')

  const read = await ts.rpc('get_organization', { org_id: orgId })
  t.equal(read.headers['x-read-your-writes'], undefined, 'reads carry no read-your-writes header')

  ts.system.runner.start()
  const next = await ts.rpc('create_organization', { name: 'Projected' })
  t.equal(next.headers['x-read-your-writes'], 'reached', 'with the runner back, writes reach their projection')
  t.equal((await ts.call('get_organization', { org_id: orgId })).name, 'Unprojected', 'and the earlier write is readable')
})

// ---------------------------------------------------------------------------------------------------------
// (d) a watermark in another process

/** The system's runner stopped, one organization appended: its position, and a watermark in another process. */
async function watermarkSetup(t: { teardown(fn: () => unknown): void }) {
  const ts = await startTestSystem(t)
  const other = openProcess(ts.database.url)
  t.teardown(() => other.close())
  const watermark = new ProjectionWatermark({ db: other.db, store: other.store, schema: LIVE_SCHEMA, group: MAIN_GROUP })
  await ts.system.runner.stop()
  const { position } = await createOrganization(ts.system.write, context, { name: 'Watermarked' })
  if (position === null) throw new Error('no position')
  return { ts, other, watermark, position }
}

t.test('a watermark in another process (no local runner) reads the checkpoint', async (t) => {
  const { ts, other, watermark, position } = await watermarkSetup(t)
  const started = Date.now()
  t.equal(await watermark.waitFor(position, 150), false, 'not reached while no runner runs')
  t.ok(Date.now() - started >= 140, 'it waited the whole timeout')

  ts.system.runner.start() // the runner of "another process": this watermark is never told
  await waitForCatchUp(ts.system.store, ts.system.database.db)
  t.equal(await watermark.waitFor(position, 2000), true, 'a checkpoint already past the position is seen by polling')
  t.equal(await watermark.waitFor(position, 0), true, 'then a reached position answers at once')
  const checkpoint = await readCheckpointRow(ts.system.database.db)
  t.ok(other.store.comparePositions(checkpoint.position!, position) >= 0, 'the checkpoint is at or past the position')
})

t.test('a watermark in another process sees the checkpoint advance while it waits', async (t) => {
  const { ts, watermark, position } = await watermarkSetup(t)
  const waiting = Promise.all([watermark.waitFor(position, 3000), watermark.waitFor(position, 3000)])
  await sleep(50) // the watermark has polled at least once, before the runner moved the checkpoint
  ts.system.runner.start()
  t.strictSame(await waiting, [true, true], 'reached, seen by polling the checkpoint')

  // Later writes, awaited concurrently through the polling watermark while the runner projects them.
  await ts.system.runner.stop()
  const positions: string[] = []
  for (let i = 0; i < 5; i++) positions.push((await createOrganization(ts.system.write, context, { name: `W${i}` })).position!)
  const all = Promise.all(positions.map((p) => watermark.waitFor(p, 3000)))
  await sleep(50)
  ts.system.runner.start()
  t.strictSame(await all, [true, true, true, true, true])
})

t.test('a watermark whose local runner keeps announcing does not poll; it polls again once the runner falls silent', async (t) => {
  const { ts, other, position } = await watermarkSetup(t)
  let reads = 0
  const watermark = new ProjectionWatermark({
    db: other.db,
    store: other.store,
    schema: LIVE_SCHEMA,
    group: MAIN_GROUP,
    readCheckpoint: async () => {
      reads++
      return (await readCheckpointRow(other.db)).position
    },
  })
  // A local runner announcing progress short of the position, every 20 ms, while a write waits.
  const before = (await readCheckpointRow(other.db)).position
  if (before === null) throw new Error('no checkpoint yet')
  watermark.advance(before)
  const announcing = setInterval(() => watermark.advance(before), 20)
  const waiting = watermark.waitFor(position, 5000)
  await sleep(150)
  t.equal(reads, 0, 'no checkpoint read while the local runner announces')

  // The group is projected elsewhere (this process's runner stopped announcing): polling takes over.
  clearInterval(announcing)
  ts.system.runner.start() // "another process's" runner: this watermark is never told
  t.equal(await waiting, true, 'reached, seen by polling once the local runner fell silent')
  t.ok(reads > 0, 'it read the checkpoint')
})
