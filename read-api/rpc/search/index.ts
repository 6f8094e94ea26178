import type { AnyRpc } from '../../registry.js'
import { associationsRpcs } from './associations.js'
import { ranksRpcs } from './ranks.js'
import { rankChecksRpcs } from './rank-checks.js'
import { keywordMetricsRpcs } from './metrics.js'
import { gscRpcs } from './gsc.js'
import { intentRpcs } from './intent.js'
import { insightsRpcs } from './insights.js'
import { surveysRpcs } from './surveys.js'

/** The search area's methods. */
export const searchRpcs: readonly AnyRpc[] = [
  ...associationsRpcs,
  ...ranksRpcs,
  ...rankChecksRpcs,
  ...keywordMetricsRpcs,
  ...gscRpcs,
  ...intentRpcs,
  ...insightsRpcs,
  ...surveysRpcs,
]
