import { monthOfDate } from '../../../domain/shared/months.js'
import type { JobContext, JobHandler } from '../handler.js'
import { planClientMonth, PLAN_STEPS, type PlannerDeps } from '../../planning/strategist/plan-client-month.js'

export { planClientMonth, type PlannerDeps } from '../../planning/strategist/plan-client-month.js'

/** A job's context as the planner's deps (the job's organization, the job recorded on the items). */
export function plannerDepsOf(ctx: JobContext, onStep?: PlannerDeps['onStep']): PlannerDeps {
  return {
    write: ctx.write,
    command: ctx.command,
    read: ctx.read,
    languageModel: ctx.languageModel,
    signal: ctx.signal,
    settle: (position) => ctx.settle(position),
    orgId: ctx.job.orgId,
    jobId: ctx.job.jobId,
    ...(onStep ? { onStep } : {}),
  }
}

/**
 * strategist(client_id, {month?}): plans the client's month (default the current one, UTC): carry-over from
 * the earlier open months, then items from the open findings fitted to the hour budget
 * (processors/planning/strategist/plan-client-month.ts). Re-runnable: a resumed or repeated job adds nothing twice.
 */
export const strategistHandler: JobHandler<'strategist'> = async (ctx) => {
  const month = ctx.job.payload.month ?? monthOfDate(ctx.clock())
  const result = await planClientMonth(
    plannerDepsOf(ctx, (done, total, message) => ctx.progress(done, total, message)),
    ctx.job.clientId!,
    month,
  )
  await ctx.progress(PLAN_STEPS, PLAN_STEPS, 'done')
  return { ...result }
}
