import type { Projector } from '../projector.js'
import { associationsProjectors } from './associations/projector.js'
import { ranksProjectors } from './ranks/projector.js'
import { rankChecksProjectors } from './rank-checks/projector.js'
import { keywordMetricsProjectors } from './metrics/projector.js'
import { gscProjectors } from './gsc/projector.js'
import { intentProjectors } from './intent/projector.js'
import { insightsProjectors } from './insights/projector.js'
import { surveysProjectors } from './surveys/projector.js'

/** The search area's projectors; each writes only its own tables. */
export const searchProjectors: readonly Projector[] = [
  ...associationsProjectors,
  ...ranksProjectors,
  ...rankChecksProjectors,
  ...keywordMetricsProjectors,
  ...gscProjectors,
  ...intentProjectors,
  ...insightsProjectors,
  ...surveysProjectors,
]
