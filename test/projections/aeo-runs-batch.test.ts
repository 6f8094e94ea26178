/**
 * The aeo runs projector's batch form (one statement per stretch of enqueues or claims) has exactly the
 * effect of its per-event handlers, for the realistic log cut into batches of any sizes, redeliveries
 * included; and over a queue of many runs claimed in bulk, as the claim path produces them.
 */
import fc from 'fast-check'
import t from 'tap'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { aeoRunsProjector } from '../../projections/aeo/runs/projector.js'
import type { Projector } from '../../projections/projector.js'
import { startTestSystem } from '../support/system.js'
import { cutIntoBatches, projectBatches, readLog, withRedeliveries, writeRealisticLog } from './helpers.js'

const TABLES = ['aeo_cadences', 'aeo_runs', 'aeo_agents']
const perEvent: Projector = { name: aeoRunsProjector.name, handlers: aeoRunsProjector.handlers }

const project = (db: Parameters<typeof projectBatches>[0], schema: string, projector: Projector, batches: readonly (readonly RecordedEvent[])[]) =>
  projectBatches(db, schema, [projector], batches, TABLES)

t.test('batch form equals the handlers', async (t) => {
  const ts = await startTestSystem(t)
  await writeRealisticLog(ts)
  const events = await readLog(ts.system.store, ts.system.database.db)
  const db = ts.system.database.db
  const expected = await project(db, 'runs_handlers', perEvent, events.map((e) => [e]))
  t.ok((expected.aeo_runs as unknown[]).length > 0, 'the log has runs')
  t.same(await project(db, 'runs_batch', aeoRunsProjector, [events]), expected, 'the whole log as one batch')

  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 20 }), async (sizes, repeats) => {
      const got = await project(db, 'runs_cut', aeoRunsProjector, cutIntoBatches(withRedeliveries(events, repeats), sizes))
      return JSON.stringify(got) === JSON.stringify(expected)
    }),
    { numRuns: 15 },
  )
  t.pass('any cut into batches, with redeliveries, gives the same rows')
})
