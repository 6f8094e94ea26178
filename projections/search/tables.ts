import type { AssociationsReadModels } from './associations/tables.js'
import type { RanksReadModels } from './ranks/tables.js'
import type { RankChecksReadModels } from './rank-checks/tables.js'
import type { KeywordMetricsReadModels } from './metrics/tables.js'
import type { GscReadModels } from './gsc/tables.js'
import type { IntentReadModels } from './intent/tables.js'
import type { InsightsReadModels } from './insights/tables.js'
import type { SurveysReadModels } from './surveys/tables.js'

/** The search area's read models as kysely sees them. */
export type SearchReadModels = AssociationsReadModels &
  RanksReadModels &
  RankChecksReadModels &
  KeywordMetricsReadModels &
  GscReadModels &
  IntentReadModels &
  InsightsReadModels &
  SurveysReadModels
