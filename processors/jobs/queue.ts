import type { Processor, ProcessorDeps } from '../runtime.js'
import { subscriptionProcessor } from '../subscription.js'
import { enqueueWork, removeWork } from './work-table.js'

export const JOB_QUEUE_NAME = 'job_queue'

const TERMINAL = new Set(['JobCompleted', 'JobFailed', 'JobCancelled'])

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
    types: new Set(['JobRequested', ...TERMINAL]),
    handle: async (event) => {
      const d = event.data
      if (event.type === 'JobRequested') {
        await enqueueWork(deps.db, { job_id: d.job_id, org_id: event.metadata.org_id, kind: d.kind, client_id: d.client_id, payload: d.payload })
      } else if (TERMINAL.has(event.type)) {
        await removeWork(deps.db, d.job_id)
      }
    },
  })
}
