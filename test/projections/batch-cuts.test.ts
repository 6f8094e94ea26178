/**
 * Every projector of projections/index.ts, over every read-model table: a log applied in any cut into
 * batches, with redeliveries (an event delivered again in the batch, and a later batch starting again from
 * an earlier point, as a runner resuming from an older checkpoint does), leaves exactly the rows of the
 * events applied one by one (batches of one), and those of a rebuild (projections/rebuild.ts). The logs: the
 * realistic one (every write RPC, re-analysis, dedupe, status changes, deletes, a sandbox reset), and the
 * bench's, whose monthly rounds make long stretches (items opened and carried across months) applied in
 * rebuild-sized pages.
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { Kysely } from 'kysely'
import t from 'tap'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { RealisticLogWriter } from '../../ops/bench/scenarios/support/event-log.js'
import { MAIN_GROUP, projectors } from '../../projections/index.js'
import { rebuildReadModels } from '../../projections/rebuild.js'
import { applyEvents } from '../../projections/apply-events.js'
import { startTestSystem } from '../support/system.js'
import {
  createScratchSchemas,
  cutIntoBatches,
  dumpSchema,
  inRolledBackTransaction,
  readLog,
  schemaDb,
  waitForCatchUp,
  withRedeliveries,
  writeRealisticLog,
  type SchemaDump,
} from './helpers.js'

/** The checkpoint is the runner's bookkeeping, not a read model: batches applied here do not move it. */
// The realistic log writes every area's events through the API, search tracking's processors included; on CI's
// two cores, beside the other files, that takes minutes, well past tap's default per-file limit.
t.setTimeout(600_000)

const READ_MODELS_ONLY = { omitTables: ['projection_checkpoint'] }

/** Every read-model table after `deliveries`, applied in order to a scratch schema (rolled back afterwards). */
function project(db: Kysely<any>, deliveries: readonly (readonly RecordedEvent[])[]): Promise<SchemaDump> {
  return inRolledBackTransaction(db, async (trx) => {
    await createScratchSchemas(trx, ['cuts'])
    for (const delivery of deliveries) await applyEvents(schemaDb(trx, 'cuts'), projectors, delivery)
    return readModels(trx, 'cuts')
  })
}

async function readModels(db: Kysely<any>, schema: string): Promise<SchemaDump> {
  const dump = await dumpSchema(db, schema)
  for (const table of READ_MODELS_ONLY.omitTables) delete dump[table]
  return dump
}

/**
 * A delivery schedule: batches of the given sizes, each starting `rewind` events before where the last one
 * ended (those are redelivered), and events at the positions `repeats` names delivered twice in a row.
 *
 * A rewind never reaches back past a SandboxReset: the reset forgets the retired clients' rows in every
 * table, and an event from before it delivered again after it would bring some back (projections/sandbox/
 * projector.ts relies on the runner never doing that: its checkpoint commits with the rows).
 */
function schedule(
  events: readonly RecordedEvent[],
  steps: readonly { size: number; rewind: number }[],
  repeats: readonly number[],
): RecordedEvent[][] {
  const deliveries: RecordedEvent[][] = []
  let cursor = 0
  let afterReset = 0
  for (let k = 0; cursor < events.length; k++) {
    const step = steps[k % steps.length]!
    const start = Math.max(afterReset, cursor - step.rewind)
    const end = Math.min(events.length, cursor + step.size)
    deliveries.push(withRedeliveries(events.slice(start, end), repeats))
    for (let i = cursor; i < end; i++) if (events[i]!.type === 'SandboxReset') afterReset = i + 1
    cursor = end
  }
  return deliveries
}

const step = fc.record({ size: fc.integer({ min: 1, max: 60 }), rewind: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })) })

t.test('the realistic log: any cut into batches, with redeliveries, equals one by one and a rebuild', async (t) => {
  const ts = await startTestSystem(t)
  await writeRealisticLog(ts)
  const db = ts.system.database.db
  const events = await readLog(ts.system.store, db)
  const expected = await project(
    db,
    events.map((e) => [e]),
  )
  const handled = new Set<string>(projectors.flatMap((p) => (p.handles === '*' ? [] : p.handles)))
  const empty = Object.keys(expected).filter((table) => expected[table]!.length === 0)
  t.ok(Object.keys(expected).length >= 40, `every read-model table is compared (${Object.keys(expected).length})`)
  t.ok(empty.length <= 2, `the log fills nearly every table (empty: ${empty.join(', ') || 'none'})`)
  t.ok(
    events.some((e) => handled.has(e.type)),
    'the log has events the projectors handle',
  )

  t.same(await project(db, [events]), expected, 'the whole log as one batch')
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 10 }), async (steps, repeats) => {
      assert.deepStrictEqual(await project(db, schedule(events, steps, repeats)), expected)
    }),
    { numRuns: 5 },
  )
  t.pass('any cut into batches, with redeliveries, gives the rows of one by one')

  await waitForCatchUp(ts.system.store, db)
  await rebuildReadModels({ store: ts.system.store, db, projectors, group: MAIN_GROUP, batchSize: 97, progressEveryMs: 60_000 })
  t.same(await readModels(db, LIVE_SCHEMA), expected, 'a rebuild (pages of 97 events) gives the same rows')
})

t.test("the bench's log: long stretches of monthly rounds, in pages, give the rows of one by one", async (t) => {
  const ts = await startTestSystem(t, { runProjections: false })
  const writer = new RealisticLogWriter(ts.system.store, { writers: 2, validate: true })
  await writer.writeUntil(3000)
  t.ok((writer.counts.get('AeoCaptureIngested') ?? 0) > 100, `the log has captures (${writer.counts.get('AeoCaptureIngested')})`)
  const db = ts.system.database.db
  const events = await readLog(ts.system.store, db)
  const expected = await project(
    db,
    events.map((e) => [e]),
  )
  const carried = (expected.aeo_item_hits as unknown[]).length - (expected.aeo_items as unknown[]).length
  t.ok(carried > 0, `items are carried across months (${carried} hits beyond the first)`)
  t.same(await project(db, cutIntoBatches(events, [1000])), expected, 'pages of 1,000 events')
  // A stretch is chunked: one ingest twice in the same batch (a redelivery) still counts once.
  t.same(await project(db, [events.flatMap((e) => [e, e])]), expected, 'every event delivered twice in one batch')
})
