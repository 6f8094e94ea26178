import { monthOfDate } from '../../../domain/shared/months.js'
import { writableClient } from '../../../commands/aeo/capture-facts.js'
import { loadClientCooldowns } from '../../../commands/monitoring/cooldowns.js'
import { loadSiteScan, queueSiteScan } from '../../../commands/monitoring/scans.js'
import { sleep } from '../../../commands/sleep.js'
import type { ClientState } from '../../../domain/clients/client.js'
import { holdingCooldown } from '../../../domain/monitoring/cooldowns/client-cooldowns.js'
import { isClosed } from '../../../domain/monitoring/scans/site-scan.js'
import { addMonths } from '../../../domain/shared/months.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { latestCompletedCrawl, scanCadenceOf } from '../../../projections/monitoring/scans/queries.js'
import { createCompareReport } from '../../../projections/planning/compare-reports/create.js'
import { compareReportOfMonth } from '../../../projections/planning/compare-reports/queries.js'
import type { JobContext, JobHandler } from '../handler.js'
import { AUTOPILOT_SETTING, optedIn, STEPS, staleReason, type StepReport } from '../../../domain/planning/autopilot/rules.js'
import { carryOutMonth } from './execute-tier-a.js'
import { planClientMonth } from '../../planning/strategist/plan-client-month.js'
import { plannerDepsOf } from './strategist.js'

export interface AutopilotOptions {
  /** How long to wait for a queued crawl to close before planning with what is known (default 15 minutes). */
  readonly scanWaitMs?: number
  /** How often the scan's state is read while waiting (default 2 seconds). */
  readonly scanPollMs?: number
}

type Ctx = JobContext<'autopilot'>

/** The hours-long wait is bounded by a count of polls, not the clock, so a hand-moved clock cannot stall it. */
async function waitForScan(ctx: Ctx, scanId: number, options: Required<AutopilotOptions>): Promise<string | null> {
  const polls = Math.max(1, Math.ceil(options.scanWaitMs / options.scanPollMs))
  for (let i = 0; i < polls; i++) {
    const scan = await loadSiteScan(ctx.write, scanId)
    if (isClosed(scan.status)) return scan.status
    ctx.signal.throwIfAborted()
    await ctx.progress(0, STEPS.length, `waiting for crawl ${scanId} (${scan.status})`)
    await sleep(options.scanPollMs, ctx.signal)
  }
  ctx.signal.throwIfAborted()
  return null
}

/**
 * Step 1: a crawl when the site is stale. The open crawl is reused (queueSiteScan answers it), so a re-run
 * waits for the crawl an earlier attempt queued instead of queueing another; a scan cooldown skips the step.
 */
async function scanStep(ctx: Ctx, owner: ClientState, options: Required<AutopilotOptions>): Promise<StepReport> {
  const now = ctx.clock()
  const [last, cadence] = await Promise.all([latestCompletedCrawl(ctx.read, owner.id), scanCadenceOf(ctx.read, owner.id)])
  const stale = staleReason(last?.finished_at ?? null, cadence.frequency, now)
  if (stale === null)
    return { step: 'scan', status: 'skipped', detail: `the site is fresh: the last crawl finished ${last!.finished_at!.toISOString()}` }
  const cooldown = holdingCooldown(await loadClientCooldowns(ctx.write, owner.id), 'scan', now.toISOString())
  if (cooldown)
    return {
      step: 'scan',
      status: 'skipped',
      detail: `${stale}, but the client is in cooldown (reason ${cooldown.reason}) until ${cooldown.until}: planned with the last crawl`,
    }
  const queued = await queueSiteScan(ctx.write, ctx.command, {
    callerOrgId: ctx.job.orgId,
    clientId: owner.id,
    scanType: 'crawl',
    trigger: 'manual',
  })
  if (!queued) throw new Error(`client ${owner.id}: the crawl could not be queued`)
  const status = await waitForScan(ctx, queued.scanId, options)
  if (status === null)
    return {
      step: 'scan',
      status: 'timed_out',
      detail: `${stale}: crawl ${queued.scanId} was still running after ${options.scanWaitMs} ms; planned with the last crawl`,
    }
  return { step: 'scan', status: 'done', detail: `${stale}: crawl ${queued.scanId} ${queued.created ? 'queued and ' : ''}${status}` }
}

/**
 * Step 3: the month's automatable tier A items carried out (execute_tier_a's work). A cooldown that holds
 * publishing back skips the step: nothing is staged or applied, and the next run does it.
 */
async function executeStep(ctx: Ctx, clientId: number, month: string): Promise<{ report: StepReport; changed: boolean }> {
  const cooldown = holdingCooldown(await loadClientCooldowns(ctx.write, clientId), 'publish', ctx.clock().toISOString())
  if (cooldown)
    return {
      report: {
        step: 'execute_tier_a',
        status: 'skipped',
        detail: `the client is in cooldown (reason ${cooldown.reason}) until ${cooldown.until}: no edit staged or applied; run again after`,
      },
      changed: false,
    }
  const carried = await carryOutMonth(ctx, clientId, month, (done, total, message) =>
    ctx.progress(2, STEPS.length, `execute_tier_a: ${message} (${done}/${total})`),
  )
  const applying = carried.auto_apply ? 'auto_apply_site_edits on' : 'auto_apply_site_edits off: edits staged for approval'
  return {
    report: {
      step: 'execute_tier_a',
      status: 'done',
      detail: `${carried.applied} items applied, ${carried.staged} staged, ${carried.skipped.length} skipped (${applying})`,
    },
    changed: carried.applied + carried.staged > 0,
  }
}

/**
 * Step 4: the month's compare report (against the month before). Filed when the month has none, refreshed when
 * this run changed the month (items added, edits staged or applied, a crawl); otherwise, a re-run after a
 * crash, it is left as filed.
 */
async function reportStep(ctx: Ctx, clientId: number, month: string, changed: boolean): Promise<{ report: StepReport; reportId: number }> {
  const existing = await compareReportOfMonth(ctx.read, clientId, month)
  if (existing && !changed)
    return {
      report: { step: 'compare_report', status: 'skipped', detail: `report ${existing.report_id} already filed; nothing changed since` },
      reportId: existing.report_id,
    }
  const client = await visibleClient(ctx.read, ctx.job.orgId, clientId)
  const filed = await createCompareReport(ctx.read, ctx.write, ctx.blobs, ctx.command, {
    client,
    callerOrgId: ctx.job.orgId,
    month,
    againstMonth: addMonths(month, -1),
  })
  await ctx.settle(filed.position)
  const verb = existing ? 'refreshed' : 'filed'
  return { report: { step: 'compare_report', status: 'done', detail: `report ${filed.reportId} ${verb}` }, reportId: filed.reportId }
}

/**
 * autopilot(client_id, {month?}): the monthly loop for a client that opted in (client setting
 * autopilot_enabled): a crawl if the site is stale, the strategist, execute_tier_a, then the month's compare
 * report. Each step is idempotent (the open crawl is reused, items are keyed by source, an item's edits are
 * never staged twice, the month's report keeps its id), so a run resumed after a crash repeats nothing done.
 */
export function createAutopilotHandler(options: AutopilotOptions = {}): JobHandler<'autopilot'> {
  const bounds = { scanWaitMs: options.scanWaitMs ?? 15 * 60_000, scanPollMs: options.scanPollMs ?? 2_000 }
  return async (ctx) => {
    const clientId = ctx.job.clientId!
    const month = ctx.job.payload.month ?? monthOfDate(ctx.clock())
    const owner = await writableClient(ctx.store, clientId, ctx.job.orgId)
    if (!optedIn(owner.settings))
      throw new Error(
        `client ${clientId} has not opted in to autopilot: set the client setting ${AUTOPILOT_SETTING} to true (set_client_setting) to run it`,
      )
    const steps: StepReport[] = []

    await ctx.progress(0, STEPS.length, 'scan')
    const scan = await scanStep(ctx, owner, bounds)
    steps.push(scan)

    ctx.signal.throwIfAborted()
    await ctx.progress(1, STEPS.length, 'strategist')
    const plan = await planClientMonth(
      plannerDepsOf(ctx, (done, total, message) => ctx.progress(1, STEPS.length, `strategist: ${message} (${done}/${total})`)),
      clientId,
      month,
    )
    const budget = plan.budget_hours === null ? 'no hour budget' : `${plan.planned_hours} of ${plan.budget_hours} hours planned`
    steps.push({
      step: 'strategist',
      status: 'done',
      detail: `${plan.added} items added, ${plan.existing} existing, ${plan.carried_over} carried over, ${plan.deferred.length} deferred (${budget})`,
    })

    ctx.signal.throwIfAborted()
    await ctx.progress(2, STEPS.length, 'execute_tier_a')
    const executed = await executeStep(ctx, clientId, month)
    steps.push(executed.report)

    ctx.signal.throwIfAborted()
    await ctx.progress(3, STEPS.length, 'compare_report')
    const changed = scan.status === 'done' || plan.added > 0 || plan.closed_months.some((m) => m.closed_now) || executed.changed
    const filed = await reportStep(ctx, clientId, month, changed)
    steps.push(filed.report)

    await ctx.progress(STEPS.length, STEPS.length, 'done')
    return { client_id: clientId, month, steps, report_id: filed.reportId }
  }
}

export const autopilotHandler: JobHandler<'autopilot'> = createAutopilotHandler()
