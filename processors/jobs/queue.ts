import { orgIdOf } from '../../projections/projector.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import { subscriptionProcessor } from '../subscription.js'
import { enqueueWork, removeWork } from './work-table.js'

export const JOB_QUEUE_NAME = 'job_queue'

/**
 * The job queue process manager: JobRequested puts the job in the work table (job_work), where workers
 * claim it; a terminal event removes it (a job cancelled while queued never runs). Idempotent per event:
 * the insert does nothing the second time, the delete deletes nothing.
 */
export function jobQueueProcessor(deps: ProcessorDeps): Processor {
  return subscriptionProcessor({
    name: JOB_QUEUE_NAME,
    store: deps.store,
    db: deps.db,
    log: deps.log,
    types: new Set(['JobRequested', 'JobCompleted', 'JobFailed', 'JobCancelled']),
    handle: async (event) => {
      if (event.type === 'JobRequested') {
        const d = event.data
        await enqueueWork(deps.db, { job_id: d.job_id, org_id: orgIdOf(event), kind: d.kind, client_id: d.client_id, payload: d.payload })
      } else if (event.type === 'JobCompleted' || event.type === 'JobFailed' || event.type === 'JobCancelled') {
        await removeWork(deps.db, event.data.job_id)
      }
    },
  })
}
