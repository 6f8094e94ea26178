/**
 * Projectors are idempotent per event (DESIGN.md, "Projections"): given a realistic log, delivering every
 * event twice, replaying the whole log again, or any at-least-once delivery schedule leaves exactly the
 * rows of a single application, in every read-model table (found through information_schema, so a new
 * read model is covered without touching this file).
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { sql } from 'kysely'
import t from 'tap'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { applyEvents } from '../../projections/apply-events.js'
import { eachEvent } from '../../projections/each-event.js'
import { projectors } from '../../projections/index.js'
import { startTestSystem } from '../support/system.js'
import { survivesSandboxResets } from './realistic/sandbox.js'
import {
  createScratchSchemas,
  dropSchema,
  dumpSchema,
  inRolledBackTransaction,
  listTables,
  projectOnce,
  readLog,
  schemaDb,
  waitForCatchUp,
  writeRealisticLog,
} from './helpers.js'

// The realistic log writes every area's events through the API, search tracking's processors included; on CI's
// two cores, beside the other files, that takes minutes, well past tap's default per-file limit.
t.setTimeout(600_000)

t.test('projection idempotence over a realistic log', async (t) => {
  const ts = await startTestSystem(t)
  const written = await writeRealisticLog(ts)
  const db = ts.system.database.db
  const events = await readLog(ts.system.store, ts.system.database.db)

  await t.test('the log exercises every handled event type', async (t) => {
    const types = new Set(events.map((e) => e.type))
    for (const projector of projectors) {
      if (projector.handles === '*') continue
      for (const type of projector.handles) {
        t.ok(types.has(type), `${projector.name} handles ${type}, and the log has one`)
      }
    }
  })

  const schemas = { once: 'idem_once', twice: 'idem_twice', replay: 'idem_replay', both: 'idem_both' }
  // One transaction: the checkpoint rows (updated_at = now()) are identical, so nothing is left out below.
  await createScratchSchemas(db, Object.values(schemas))
  t.teardown(async () => {
    for (const schema of Object.values(schemas)) await dropSchema(db, schema).catch(() => {})
  })

  const once = schemaDb(db, schemas.once)
  await applyEvents(once, projectors, events)

  const twice = schemaDb(db, schemas.twice)
  for (const event of events) await applyEvents(twice, projectors, [event, event])

  const replay = schemaDb(db, schemas.replay)
  await applyEvents(replay, projectors, events)
  await applyEvents(replay, projectors, events)

  const both = schemaDb(db, schemas.both)
  for (const event of events) await applyEvents(both, projectors, [event, event])
  await applyEvents(both, projectors, events)

  const expected = await dumpSchema(db, schemas.once)

  await t.test('a single application is not vacuous', async (t) => {
    const tables = await listTables(db, schemas.once)
    t.strictSame(tables, await listTables(db, LIVE_SCHEMA), 'the scratch schema has the live tables')
    for (const table of [
      'projection_checkpoint',
      'organizations',
      'api_keys',
      'org_activity',
      'clients',
      'client_services',
      'client_locations',
      'client_settings',
    ]) {
      t.ok(tables.includes(table), `${table} is dumped`)
    }
    for (const table of tables) {
      if (table === 'projection_checkpoint') continue
      t.ok(expected[table]!.length > 0, `${table} has rows (extend writeRealisticLog for a new read model)`)
    }
    const clients = new Map(expected.clients!.map((c) => [c.id as number, c]))
    const [plumbers, heaters, roofers, staging, bravo, , gone] = written.clientIds
    t.match(clients.get(plumbers!), {
      status: 'active',
      deactivated_at: null,
      deleted_at: null,
      name: 'Plumbers International',
      slug: 'plumbers-intl',
    })
    t.match(clients.get(heaters!), { status: 'active', deactivated_at: null, deleted_at: null }, 'deleted and restored')
    t.match(clients.get(roofers!), { status: 'deleted', deactivated_at: String, deleted_at: String })
    t.match(clients.get(staging!), { status: 'paused', deactivated_at: String, deleted_at: null })
    t.match(clients.get(bravo!), { status: 'active', deleted_at: null })
    t.match(clients.get(gone!), { status: 'staging', deleted_at: null, deactivated_at: String })
    const plumberLocations = expected.client_locations!.filter((l) => l.client_id === plumbers)
    t.equal(plumberLocations.filter((l) => l.removed_at !== null).length, 3, 'three locations removed')
    t.strictSame(
      plumberLocations.filter((l) => l.removed_at === null).map((l) => l.name),
      ['Austin, TX'],
      'Austin re-added',
    )
    t.equal(expected.api_keys!.filter((k) => k.revoked_at !== null).length, written.revokedKeyIds.length, 'revoked keys')
    t.equal(
      expected.org_activity!.length,
      survivesSandboxResets(events).filter((e) => typeof (e.metadata as { org_id?: unknown } | null)?.org_id === 'number').length,
    )
  })

  await t.test('the comparison catches a missed event and a non-idempotent handler', async (t) => {
    const omit = { projection_checkpoint: ['updated_at'] }
    const reference = await dumpSchema(db, schemas.once, omit)
    t.notSame(await projectOnce(db, 'idem_probe', events.slice(0, -1), omit), reference, 'one event fewer differs')
    const appendBang = eachEvent({
      name: 'non-idempotent',
      handlers: {
        async ClientUpdated(db, event) {
          await db.updateTable('clients').set({ name: sql`name || '!'` }).where('id', '=', event.data.client_id).execute()
        },
      },
    })
    const doubled = events.flatMap((e) => [e, e])
    t.notSame(
      await projectOnce(db, 'idem_probe', doubled, omit, [...projectors, appendBang]),
      await projectOnce(db, 'idem_probe', events, omit, [...projectors, appendBang]),
      'a handler that is not idempotent is caught',
    )
  })

  await t.test('each event delivered twice in a row', async (t) => {
    t.strictSame(await dumpSchema(db, schemas.twice), expected)
  })

  await t.test('the whole log applied a second time', async (t) => {
    t.strictSame(await dumpSchema(db, schemas.replay), expected)
  })

  await t.test('each event twice, then the whole log again', async (t) => {
    t.strictSame(await dumpSchema(db, schemas.both), expected)
  })

  await t.test('a single application equals what the live runner built incrementally', async (t) => {
    await waitForCatchUp(ts.system.store, db)
    const omit = { projection_checkpoint: ['position', 'events_applied', 'updated_at'] }
    t.strictSame(await dumpSchema(db, LIVE_SCHEMA, omit), await dumpSchema(db, schemas.once, omit))
  })

  await t.test('any at-least-once delivery schedule (redelivered suffixes) leaves the same rows', async (t) => {
    const schema = 'idem_schedule'
    const omit = { projection_checkpoint: ['updated_at'] }
    const reference = await dumpSchema(db, schemas.once, omit)
    const step = fc.record({ rewind: fc.nat({ max: events.length }), size: fc.integer({ min: 1, max: 25 }) })
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const deliveries: RecordedEvent[][] = []
        let cursor = 0
        for (const s of steps) {
          if (cursor >= events.length) break
          const start = Math.max(0, cursor - s.rewind)
          const end = Math.min(events.length, cursor + s.size)
          deliveries.push(events.slice(start, end))
          cursor = end
        }
        if (cursor < events.length) deliveries.push(events.slice(cursor))
        // One transaction, rolled back: nothing to drop, and no commit per statement.
        await inRolledBackTransaction(db, async (trx) => {
          await createScratchSchemas(trx, [schema])
          const target = schemaDb(trx, schema)
          for (const delivery of deliveries) await applyEvents(target, projectors, delivery)
          assert.deepStrictEqual(await dumpSchema(trx, schema, omit), reference)
        })
      }),
      { numRuns: 10 },
    )
    t.pass('every schedule converged')
  })
})
