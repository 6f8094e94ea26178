import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { writeAssociationsLog } from './search-associations.js'
import { writeRanksLog } from './search-ranks.js'
import { writeRankChecksLog } from './search-rank-checks.js'
import { writeKeywordMetricsLog } from './search-metrics.js'
import { writeGscLog } from './search-gsc.js'
import { writeIntentLog } from './search-intent.js'
import { writeInsightsLog } from './search-insights.js'
import { writeSurveysLog } from './search-surveys.js'

/** The search area's part of the realistic log. */
export async function writeSearchLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  await writeAssociationsLog(ts, log, keys)
  await writeRanksLog(ts, log, keys)
  await writeRankChecksLog(ts, log, keys)
  await writeKeywordMetricsLog(ts, log, keys)
  await writeGscLog(ts, log, keys)
  await writeIntentLog(ts, log, keys)
  await writeInsightsLog(ts, log, keys)
  await writeSurveysLog(ts, log, keys)
}
