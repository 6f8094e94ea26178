import type { Scenario } from '../types.js'
import { aeoClaimScenarios } from './aeo-claims.js'
import { aeoSummaryScenarios } from './aeo-summary.js'
import { crawlScenarios } from './crawl.js'
import { eventStoreScenarios } from './event-store.js'
import { exportScenarios } from './export-org.js'
import { httpScenarios } from './http.js'
import { rebuildScenarios } from './rebuild.js'
import { webhookScenarios } from './webhook-dispatch.js'
import { rankScenarios } from './ranks.js'
import { strategistScenarios } from './strategist.js'
import { publishingScenarios } from './publishing.js'

/** Every scenario, in the order `npm run bench` runs them. Later issues add theirs here. */
export const scenarios: readonly Scenario[] = [
  ...eventStoreScenarios,
  ...rebuildScenarios,
  ...httpScenarios,
  ...aeoClaimScenarios,
  ...aeoSummaryScenarios,
  ...webhookScenarios,
  ...exportScenarios,
  ...rankScenarios,
  ...crawlScenarios,
  ...strategistScenarios,
  ...publishingScenarios,
]
