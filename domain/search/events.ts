import { associationsEventSchemas } from './associations/events.js'
import { ranksEventSchemas } from './ranks/events.js'
import { rankChecksEventSchemas } from './rank-checks/events.js'
import { keywordMetricsEventSchemas } from './metrics/events.js'
import { gscEventSchemas } from './gsc/events.js'
import { intentEventSchemas } from './intent/events.js'
import { insightsEventSchemas } from './insights/events.js'
import { surveysEventSchemas } from './surveys/events.js'

/** Every event schema of the search area (keywords' pages, ranks, checks, metrics, Search Console, intent, insights, surveys). */
export const searchEventSchemas = {
  ...associationsEventSchemas,
  ...ranksEventSchemas,
  ...rankChecksEventSchemas,
  ...keywordMetricsEventSchemas,
  ...gscEventSchemas,
  ...intentEventSchemas,
  ...insightsEventSchemas,
  ...surveysEventSchemas,
} as const
