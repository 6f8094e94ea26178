import type { JobKind } from '../../../domain/jobs/kinds.js'
import type { JobHandler } from '../handler.js'
import { adCopyHandler } from './ad-copy.js'
import { autopilotHandler } from './autopilot.js'
import { bulkStrategistHandler } from './bulk-strategist.js'
import { executeTierAHandler } from './execute-tier-a.js'
import { exportOrgHandler } from './export-org.js'
import { fulfillSelectedHandler } from './fulfill-selected.js'
import { keywordGenerationHandler } from './keyword-generation.js'
import { promptedEdit } from './prompted-edit.js'
import { strategistHandler } from './strategist.js'

/**
 * The handler of each job kind. A kind in domain/jobs/kinds.ts without a handler here is not offered:
 * POST /api/v1/jobs answers 400 job_kind_unavailable for it. One line per kind, one file per kind.
 */
export const JOB_HANDLERS: { readonly [K in JobKind]?: JobHandler<K> } = {
  ad_copy: adCopyHandler,
  autopilot: autopilotHandler,
  bulk_strategist: bulkStrategistHandler,
  execute_tier_a: executeTierAHandler,
  export_org: exportOrgHandler,
  fulfill_selected: fulfillSelectedHandler,
  keyword_generation: keywordGenerationHandler,
  prompted_edit: promptedEdit,
  strategist: strategistHandler,
}
