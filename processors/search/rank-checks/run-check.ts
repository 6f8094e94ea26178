import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { loadClient } from '../../../commands/clients.js'
import type { CommandContext, WriteDeps } from '../../../commands/command-handler.js'
import { loadKeywordSet } from '../../../commands/keywords.js'
import {
  completeRankCheck,
  failRankCheck,
  failRankCheckTask,
  loadClientChecks,
  reportRankCheckProgress,
  startRankCheck,
} from '../../../commands/search/rank-checks/checks.js'
import { recordedRankKeys } from '../../../commands/search/rank-checks/recorded.js'
import { recordKeywordRanks } from '../../../commands/search/ranks.js'
import type { CheckPlan } from '../../../domain/search/rank-checks/client-checks.js'
import type { RankCheckError } from '../../../domain/search/rank-checks/events.js'
import type { ClientLocation } from '../../../domain/search/rank-checks/locations.js'
import { checkPlan, pendingTasks } from '../../../domain/search/rank-checks/plan.js'
import { matchingPage, rankRowOf, type RankTask, type SerpClient } from '../../../domain/search/rank-checks/serp.js'
import type { RankRow } from '../../../domain/search/ranks/rank-row.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { pagesForClient } from '../../../projections/pages/queries.js'
import { pagesOfKeywords } from '../../../projections/search/associations/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { searchWithRetries, type RetryPolicy } from './call-with-retries.js'
import type { RankProvider } from './providers/port.js'
import type { Semaphore } from './semaphore.js'

/**
 * Rows recorded together (one command, a few events). Rows are also recorded at each heartbeat, so a crash
 * loses at most this many fetched ranks, or a heartbeat's worth, which the resumed check fetches again.
 */
export const FLUSH_ROWS = 200
/** Searches in a row still failing after every retry before the provider is judged down and the check stopped. */
export const CIRCUIT_BREAK = 3

export interface CheckRunDeps {
  readonly write: WriteDeps
  readonly read: ReadDb
  readonly log: Logger
  /** The configured provider; null: none, and checks fail with rank_provider_not_configured. */
  readonly provider: RankProvider | null
  /** Searches in flight across this process's checks. */
  readonly slots: Semaphore
  readonly policy: RetryPolicy
  /** How long a take (and each heartbeat) holds the check. */
  readonly leaseMs: number
  readonly heartbeatMs: number
  /** This process's name in the check's log (RankCheckStarted.worker). */
  readonly worker: string
}

/** How a run ended: finished (completed or failed), skipped (not ours to run), or stopped (shutdown, or the lease was lost). */
export type CheckRunResult = 'finished' | 'skipped' | 'stopped'

const isCode = (error: unknown, ...codes: string[]) => error instanceof DomainError && codes.includes(error.code)
const messageOf = (error: unknown) =>
  error instanceof DomainError
    ? `${error.message}${error.detail ? ` (${error.detail})` : ''}`
    : error instanceof Error
      ? error.message
      : String(error)

/**
 * Runs one open check of a client, or resumes it after a worker that held it stopped: takes it (a lease in the
 * client's checks stream), searches every task not yet recorded for the check's date, records the rows in
 * batches through record_keyword_ranks' command (never replacing a row), reports progress as its heartbeat,
 * and completes or fails the check. A provider's 401 or 402 fails the check at once with its code; a provider
 * that stays down after the retries fails it as rank_provider_unavailable; a search the provider rejects is a
 * failed task. `signal`: shutdown; the check is then left for the next take (its lease released at once).
 * Never throws for a provider's failure; a database failure propagates (the lease runs out, and the check
 * is resumed).
 */
export async function runRankCheck(
  deps: CheckRunDeps,
  check: { id: number; clientId: number },
  signal: AbortSignal,
): Promise<CheckRunResult> {
  const context: CommandContext = {
    actor: { kind: 'system', id: 'rank-check-runner' },
    requestId: null,
    correlationId: randomUUID(),
    causationId: null,
  }
  const write = deps.write
  const log = deps.log.child({ rank_check_id: check.id, client_id: check.clientId })
  const checks = await loadClientChecks(write, check.clientId)
  const open = checks.open
  if (!open || open.checkId !== check.id) return 'skipped'
  const counts = { tasks_done: open.tasksDone, tasks_failed: open.tasksFailed, calls: 0, retries: 0 }

  /** Fails the check before taking it (nothing can run); another worker got there first: skipped. */
  const failUntaken = async (error: RankCheckError): Promise<CheckRunResult> => {
    try {
      await failRankCheck(write, context, { clientId: check.clientId, checkId: check.id, attempt: null, error, ...counts })
      log.warn({ code: error.code }, `rank check failed: ${error.message}`)
      return 'finished'
    } catch (error) {
      if (isCode(error, 'rank_check_held', 'rank_check_not_open')) return 'skipped'
      throw error
    }
  }

  const client = await loadClient(write.store, check.clientId)
  if (client.status === 'deleted') return failUntaken({ code: 'client_deleted', message: 'the client was deleted before its check ran' })
  const provider = deps.provider
  if (!provider) {
    return failUntaken({
      code: 'rank_provider_not_configured',
      message: 'no rank provider is configured: set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD, or SERPAPI_KEY, on the processors',
    })
  }

  const keywordSet = await loadKeywordSet(write, check.clientId)
  const liveKeywords = new Map(keywordSet.keywords.filter((k) => !k.deleted).map((k) => [k.id, k.keyword]))
  const plan: CheckPlan =
    open.plan ??
    checkPlan(
      [...liveKeywords.keys()],
      client.locations.map((l) => l.id),
      open.devices,
    )
  const recorded = await recordedRankKeys(write, check.clientId, open.date)
  const tasks = pendingTasks(plan, open.date, recorded)

  let attempt: number
  try {
    const started = await startRankCheck(write, context, {
      clientId: check.clientId,
      checkId: check.id,
      leaseMs: deps.leaseMs,
      worker: deps.worker,
      provider: provider.name,
      tasksRecorded: plan.tasks_total - tasks.length,
      plan,
    })
    if (!started.open || started.open.checkId !== check.id) {
      log.warn('rank check failed: interrupted too many times')
      return 'finished' // failed as rank_check_interrupted by the take itself
    }
    attempt = started.open.attempt
  } catch (error) {
    if (isCode(error, 'rank_check_held', 'rank_check_not_open')) return 'skipped'
    throw error
  }
  log.info({ attempt, tasks: tasks.length, provider: provider.name }, 'rank check started')

  counts.tasks_done = plan.tasks_total - tasks.length
  counts.tasks_failed = 0
  const locations = new Map<number, ClientLocation>(client.locations.map((l) => [l.id, l]))
  const serpClient: SerpClient = { websiteUrl: client.websiteUrl, name: client.name }
  // A page may be stored as a path of the site ("/drain-cleaning"): compared as the full URL it is.
  const absolute = (url: string) => {
    try {
      return new URL(url, client.websiteUrl).toString()
    } catch {
      return url
    }
  }
  const associated = await pagesOfKeywords(deps.read, plan.keyword_ids)
  const pages = (await pagesForClient(deps.read, check.clientId, false)).map((p) => ({ id: p.id, url: absolute(p.url) }))
  const pageOf = (keywordId: number) => (url: string | null) =>
    matchingPage(
      url,
      (associated.get(keywordId) ?? []).map((p) => ({ id: p.page_id, url: absolute(p.url) })),
      pages,
    )

  const stop = new AbortController()
  const working = AbortSignal.any([signal, stop.signal])
  // Why the run stopped early, the first reason only (set from the tasks' callbacks).
  const stopped: { reason: { kind: 'fatal' | 'down'; error: RankCheckError } | { kind: 'lost' } | null } = { reason: null }
  const end = (reason: NonNullable<(typeof stopped)['reason']>) => {
    stopped.reason ??= reason
    stop.abort()
  }

  // Reports and row batches go one at a time, in order: each report's counts include every batch before it.
  let serial: Promise<unknown> = Promise.resolve()
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const next = serial.then(work)
    serial = next.catch(() => undefined)
    return next
  }
  let reported = { calls: 0, retries: 0 }
  const report = (leaseMs: number) =>
    inOrder(async () => {
      const delta = { calls: counts.calls - reported.calls, retries: counts.retries - reported.retries }
      try {
        await reportRankCheckProgress(write, context, {
          clientId: check.clientId,
          checkId: check.id,
          attempt,
          leaseMs,
          tasks_done: counts.tasks_done,
          tasks_failed: counts.tasks_failed,
          ...delta,
        })
        reported = { calls: reported.calls + delta.calls, retries: reported.retries + delta.retries }
      } catch (error) {
        if (!isCode(error, 'rank_check_not_held', 'rank_check_not_open')) throw error
        log.warn('rank check: another worker took the check over; stopping')
        end({ kind: 'lost' })
      }
    })

  const failTask = (task: RankTask, error: RankCheckError, tries: number) =>
    inOrder(async () => {
      counts.tasks_failed++
      try {
        await failRankCheckTask(write, context, {
          clientId: check.clientId,
          checkId: check.id,
          attempt,
          keywordId: task.keyword_id,
          locationId: task.location_id,
          device: task.device,
          error,
          tries,
        })
      } catch (thrown) {
        if (!isCode(thrown, 'rank_check_not_held', 'rank_check_not_open')) throw thrown
        end({ kind: 'lost' })
      }
    })

  let buffer: { row: RankRow; task: RankTask }[] = []
  const flush = () =>
    inOrder(async () => {
      const batch = buffer
      buffer = []
      if (batch.length === 0) return
      try {
        const outcome = await recordKeywordRanks(write, context, {
          clientId: check.clientId,
          rows: batch.map((b) => b.row),
          checkId: check.id,
          overwrite: false,
        })
        counts.tasks_done += outcome.recorded + outcome.updated + outcome.unchanged
      } catch (error) {
        if (!(error instanceof DomainError)) {
          // Not recorded (the database failed): kept for the next flush, or fetched again by the resumed check.
          buffer = [...batch, ...buffer]
          throw error
        }
        // One row the command refuses (its keyword deleted meanwhile) must not cost the others: one by one.
        for (const { row, task } of batch) {
          try {
            await recordKeywordRanks(write, context, { clientId: check.clientId, rows: [row], checkId: check.id, overwrite: false })
            counts.tasks_done++
          } catch (rowError) {
            if (!(rowError instanceof DomainError)) throw rowError
            counts.tasks_failed++
            await failRankCheckTask(write, context, {
              clientId: check.clientId,
              checkId: check.id,
              attempt,
              keywordId: task.keyword_id,
              locationId: task.location_id,
              device: task.device,
              error: { code: 'rank_record_refused', message: messageOf(rowError).slice(0, 1000) },
              tries: 0,
            }).catch((e: unknown) => {
              if (!isCode(e, 'rank_check_not_held', 'rank_check_not_open')) throw e
              end({ kind: 'lost' })
            })
          }
        }
      }
    })

  let consecutiveDown = 0
  const runTask = async (task: RankTask): Promise<void> => {
    const keyword = liveKeywords.get(task.keyword_id)
    if (keyword === undefined)
      return failTask(task, { code: 'rank_record_refused', message: 'the keyword was deleted after the check was planned' }, 0)
    const location = task.location_id === null ? null : locations.get(task.location_id)
    if (location === undefined)
      return failTask(task, { code: 'rank_record_refused', message: 'the location was removed after the check was planned' }, 0)
    const outcome = await searchWithRetries(provider, { keyword, location, device: task.device }, deps.policy, working)
    counts.calls += outcome.calls
    counts.retries += outcome.retries
    if (outcome.ok) {
      consecutiveDown = 0
      const row = rankRowOf(outcome.page, {
        task,
        date: open.date,
        source: provider.name,
        client: serpClient,
        pageOf: pageOf(task.keyword_id),
      })
      buffer.push({ row, task })
      if (buffer.length >= FLUSH_ROWS) await flush()
      return
    }
    if (working.aborted) return // stopping (shutdown, a fatal refusal, a lost lease): not this task's failure
    const error = outcome.error
    if (error.fatal) {
      log.warn({ code: error.code, status: error.status }, `rank check: the provider refused: ${error.message}`)
      return end({ kind: 'fatal', error: { code: error.code, message: error.message } })
    }
    await failTask(task, { code: error.code, message: error.message }, outcome.calls)
    if (error.code === 'rank_provider_unavailable' && ++consecutiveDown >= CIRCUIT_BREAK) {
      const message = `${consecutiveDown} searches in a row failed after ${deps.policy.maxAttempts} tries each; last: ${error.message}`
      end({ kind: 'down', error: { code: 'rank_provider_unavailable', message: message.slice(0, 1000) } })
    }
  }

  // The heartbeat records the rows fetched so far, then reports (the report's counts include them).
  const heartbeat = setInterval(() => {
    if (working.aborted) return
    flush()
      .then(() => report(deps.leaseMs))
      .catch((error: unknown) => log.error({ err: error }, 'rank check: heartbeat failed'))
  }, deps.heartbeatMs)
  heartbeat.unref()
  try {
    const inFlight = new Set<Promise<void>>()
    let failure: unknown = null
    for (const task of tasks) {
      if (!(await deps.slots.acquire(working))) break
      const running: Promise<void> = runTask(task)
        .catch((error: unknown) => {
          failure ??= error
          stop.abort()
        })
        .finally(() => {
          deps.slots.release()
          inFlight.delete(running)
        })
      inFlight.add(running)
    }
    await Promise.all(inFlight)
    await flush()
    if (failure !== null) throw failure
  } finally {
    clearInterval(heartbeat)
    await serial
  }

  const finalCounts = {
    tasks_done: counts.tasks_done,
    tasks_failed: counts.tasks_failed,
    calls: counts.calls - reported.calls,
    retries: counts.retries - reported.retries,
  }
  const outcome = stopped.reason
  try {
    if (outcome?.kind === 'lost') return 'stopped'
    if (outcome) {
      await failRankCheck(write, context, { clientId: check.clientId, checkId: check.id, attempt, error: outcome.error, ...finalCounts })
      log.warn({ code: outcome.error.code }, `rank check failed: ${outcome.error.message}`)
      return 'finished'
    }
    if (signal.aborted) {
      // Shutting down: what is recorded stays, and the next worker may take the check at once (lease released).
      await report(0)
      return 'stopped'
    }
    await completeRankCheck(write, context, { clientId: check.clientId, checkId: check.id, attempt, ...finalCounts })
    log.info({ done: counts.tasks_done, failed: counts.tasks_failed, calls: counts.calls }, 'rank check completed')
    return 'finished'
  } catch (error) {
    if (isCode(error, 'rank_check_not_held', 'rank_check_not_open')) return 'stopped'
    throw error
  }
}
