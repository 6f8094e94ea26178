import type { Projector } from '../projector.js'
import { aeoCapturesProjector } from './captures/projector.js'
import { aeoQuestionsProjector } from './questions/projector.js'
import { aeoReportsProjector } from './reports/projector.js'
import { aeoRunsProjector } from './runs/projector.js'
import { aeoTrackerProjector } from './tracker/projector.js'

/** The AI Visibility projectors; each writes only its own tables (projections/aeo/tables.ts). */
export const aeoProjectors: readonly Projector[] = [
  aeoQuestionsProjector,
  aeoRunsProjector,
  aeoCapturesProjector,
  aeoTrackerProjector,
  aeoReportsProjector,
]
