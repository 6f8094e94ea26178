/**
 * The questions, captures and tracker projectors' batch forms (one insert per stretch of added questions,
 * ingests or tracked captures; the summary totals and the items' months in one pass) have exactly the effect of their per-event
 * handlers: for the realistic log (re-analysis, dedupe, status changes, deletes) cut into batches of any
 * size with redeliveries, and for the bench's log, whose monthly rounds make long stretches with items
 * opened and carried across months, applied in rebuild-sized pages.
 */
import fc from 'fast-check'
import t from 'tap'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { RealisticLogWriter } from '../../ops/bench/scenarios/support/event-log.js'
import { aeoCapturesProjector } from '../../projections/aeo/captures/projector.js'
import { aeoQuestionsProjector } from '../../projections/aeo/questions/projector.js'
import { aeoTrackerProjector } from '../../projections/aeo/tracker/projector.js'
import { projectors as mainProjectors } from '../../projections/index.js'
import type { Projector } from '../../projections/projector.js'
import { startTestSystem } from '../support/system.js'
import { cutIntoBatches, projectBatches, readLog, withRedeliveries, writeRealisticLog } from './helpers.js'

const TABLES = ['aeo_queries', 'aeo_captures', 'aeo_summary_counts', 'aeo_summary_competitors', 'aeo_summary_spellings', 'aeo_summary_months', 'aeo_items', 'aeo_item_hits']
const BATCHED = new Set([aeoQuestionsProjector.name, aeoCapturesProjector.name, aeoTrackerProjector.name])
/** Every projector, the three under test through their handlers only. */
const perEvent: Projector[] = mainProjectors.map((p) => (BATCHED.has(p.name) ? { name: p.name, handlers: p.handlers } : p))

const project = (db: Parameters<typeof projectBatches>[0], schema: string, projectors: readonly Projector[], batches: readonly (readonly RecordedEvent[])[]) =>
  projectBatches(db, schema, projectors, batches, TABLES)

t.test('the realistic log: any cut into batches, with redeliveries, gives the handlers\' rows', async (t) => {
  const ts = await startTestSystem(t)
  await writeRealisticLog(ts)
  const events = await readLog(ts.system.store, ts.system.database.db)
  const db = ts.system.database.db
  const expected = await project(db, 'ct_handlers', perEvent, events.map((e) => [e]))
  for (const table of ['aeo_queries', 'aeo_captures', 'aeo_summary_months', 'aeo_items', 'aeo_item_hits']) t.ok(expected[table]!.length > 0, `the log fills ${table}`)
  t.same(await project(db, 'ct_whole', mainProjectors, [events]), expected, 'the whole log as one batch')

  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 20 }), async (sizes, repeats) => {
      const got = await project(db, 'ct_cut', mainProjectors, cutIntoBatches(withRedeliveries(events, repeats), sizes))
      return JSON.stringify(got) === JSON.stringify(expected)
    }),
    { numRuns: 10 },
  )
  t.pass('any cut into batches, with redeliveries, gives the same rows')
})

t.test('the bench\'s log: long stretches of monthly rounds, in pages, give the handlers\' rows', async (t) => {
  const ts = await startTestSystem(t)
  const writer = new RealisticLogWriter(ts.system.store, { writers: 2, validate: true })
  await writer.writeUntil(3000)
  t.ok((writer.counts.get('AeoCaptureIngested') ?? 0) > 100, `the log has captures (${writer.counts.get('AeoCaptureIngested')})`)
  const events = await readLog(ts.system.store, ts.system.database.db)
  const db = ts.system.database.db
  const expected = await project(db, 'bl_handlers', perEvent, events.map((e) => [e]))
  const carried = (expected.aeo_item_hits as { item_id: number }[]).length - (expected.aeo_items as unknown[]).length
  t.ok(carried > 0, `items are carried across months (${carried} hits beyond the first)`)
  t.same(await project(db, 'bl_pages', mainProjectors, cutIntoBatches(events, [1000])), expected, 'pages of 1,000 events')
  // The stretch is chunked: one ingest twice in the same batch (a redelivery) still counts once.
  t.same(await project(db, 'bl_twice', mainProjectors, [events.flatMap((e) => [e, e])]), expected, 'every event delivered twice in one batch')
})
