import type { Kysely } from 'kysely'
import { createAssociationsTables } from './search-associations.js'
import { createRanksTables } from './search-ranks.js'
import { createRankChecksTables } from './search-rank-checks.js'
import { createKeywordMetricsTables } from './search-metrics.js'
import { createGscTables } from './search-gsc.js'
import { createIntentTables } from './search-intent.js'
import { createInsightsTables } from './search-insights.js'
import { createSurveysTables } from './search-surveys.js'

/** The search area's read models. */
export async function createSearchTables(db: Kysely<any>, schema: string): Promise<void> {
  await createAssociationsTables(db, schema)
  await createRanksTables(db, schema)
  await createRankChecksTables(db, schema)
  await createKeywordMetricsTables(db, schema)
  await createGscTables(db, schema)
  await createIntentTables(db, schema)
  await createInsightsTables(db, schema)
  await createSurveysTables(db, schema)
}
