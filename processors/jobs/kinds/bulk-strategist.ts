import { monthOfDate } from '../../../domain/shared/months.js'
import { activeClientIdsInGroup } from '../../../projections/planning/groups/queries.js'
import type { JobHandler } from '../handler.js'
import { planClientMonth } from '../../planning/strategist/plan-client-month.js'
import { plannerDepsOf } from './strategist.js'

/**
 * bulk_strategist(group_id, {month?}): the strategist (planClientMonth) for every active client of the group,
 * one after the other (two cores; each client's plan is a handful of reads and two appends).
 *
 * - A client whose plan fails (its month closed, the client deleted or moved away since the job was
 *   accepted, …) is recorded in `failed` with the error, and the others go on; the job fails only when
 *   it is cancelled or stopped.
 * - Resumable: a resumed job (a restart) plans every client again; each plan is idempotent (closes are no-ops
 *   once recorded, a finding's source key is never added twice), so nothing is skipped wrongly and nothing
 *   is added twice.
 * - The members are read when the job runs (client_group_members): a client added to the group meanwhile
 *   is planned, one removed is not.
 */
export interface BulkClientResult {
  client_id: number
  added: number
  existing: number
  deferred: number
  carried_over: number
  planned_hours: number
  writer: string
}

export const bulkStrategistHandler: JobHandler<'bulk_strategist'> = async (ctx) => {
  const groupId = ctx.job.groupId
  if (groupId === null) throw new Error(`job ${ctx.job.jobId} names no group (bulk_strategist takes group_id)`)
  const month = ctx.job.payload.month ?? monthOfDate(ctx.clock())
  const clientIds = await activeClientIdsInGroup(ctx.read, groupId)
  const deps = plannerDepsOf(ctx)
  const results: BulkClientResult[] = []
  const failed: { client_id: number; error: string }[] = []
  for (const [index, clientId] of clientIds.entries()) {
    ctx.signal.throwIfAborted()
    await ctx.progress(index, clientIds.length, `client ${clientId}`)
    try {
      const plan = await planClientMonth(deps, clientId, month)
      results.push({
        client_id: clientId,
        added: plan.added,
        existing: plan.existing,
        deferred: plan.deferred.length,
        carried_over: plan.carried_over,
        planned_hours: plan.planned_hours,
        writer: plan.writer,
      })
    } catch (error) {
      // A stop or cancel ends the job (it is resumed or cancelled); anything else is this client's alone.
      ctx.signal.throwIfAborted()
      failed.push({ client_id: clientId, error: error instanceof Error ? error.message : String(error) })
      ctx.log.warn({ err: error, client_id: clientId, group_id: groupId }, 'bulk_strategist: one client failed')
    }
  }
  await ctx.progress(clientIds.length, clientIds.length, 'done')
  return {
    group_id: groupId,
    month,
    clients: clientIds.length,
    succeeded: results.length,
    added: results.reduce((sum, r) => sum + r.added, 0),
    failed,
    results,
  }
}
