import type { Kysely } from 'kysely'
import { createActionItemsTables } from './planning-action-items.js'
import { createClientGroupsTables } from './planning-groups.js'
import { createCyclesTables } from './planning-cycles.js'
import { createCompareReportsTables } from './planning-compare-reports.js'

/** The planning area's read models. */
export async function createPlanningTables(db: Kysely<any>, schema: string): Promise<void> {
  await createActionItemsTables(db, schema)
  await createClientGroupsTables(db, schema)
  await createCyclesTables(db, schema)
  await createCompareReportsTables(db, schema)
}
