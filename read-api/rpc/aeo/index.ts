import type { AnyRpc } from '../../registry.js'
import { aeoCapturesRpcs } from './captures.js'
import { aeoQuestionsRpcs } from './questions.js'
import { aeoReportsRpcs } from './reports.js'
import { aeoRunsRpcs } from './runs.js'
import { aeoTrackerRpcs } from './tracker.js'

/** Every AI Visibility RPC (domain ai-visibility). */
export const aeoRpcs: AnyRpc[] = [...aeoQuestionsRpcs, ...aeoRunsRpcs, ...aeoCapturesRpcs, ...aeoTrackerRpcs, ...aeoReportsRpcs]
