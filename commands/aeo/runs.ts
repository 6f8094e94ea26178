import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import {
  run,
  runStream,
  type AgentRef,
  type CancelReason,
  type RunCommand,
  type RunState,
  type RunStatus,
} from '../../domain/aeo/runs/run.js'
import type { AeoRunEvent } from '../../domain/aeo/runs/events.js'
import { daysInMonth, dueSamples, monthAndDay, runsToQueue } from '../../domain/aeo/runs/cadence.js'
import type { Engine } from '../../domain/aeo/engines.js'
import { DomainError, NotFoundError } from '../../domain/shared/errors.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import { appendDecided } from '../append.js'
import { handleCommand, loadState, type CommandContext, type CommandOutcome, type WriteDeps } from '../command-handler.js'
import { decode } from '../event-store/decode.js'
import type { Position } from '../event-store/port.js'
import type { RunQueueReads } from './run-queue-reads.js'
import type { AeoSettings } from './settings.js'

/**
 * What the run commands need: the write side, their reads of the read models (the queue is selected from
 * aeo_runs), the database itself (the claim leases, and the session locks the queue is counted under) and
 * the operator settings. The RPC handlers and the built-in server agent pass the same.
 */
export type RunDeps = WriteDeps & { readonly db: Kysely<WorkTables>; readonly reads: RunQueueReads; readonly settings: AeoSettings }

/**
 * Enqueueing and cancelling also wait for the read models: to reach the log's head before counting, and to
 * show what they appended before letting the next enqueuer count. Resolves false on timeout.
 */
export type QueueDeps = RunDeps & { readonly waitForReadModels: (position: Position) => Promise<boolean> }

export type RunOutcome = CommandOutcome<RunState, AeoRunEvent>

/** An agent acting on a run it claimed. `agent.agent_org_id` also confines which runs it can see. */
export interface AgentRunInput {
  readonly runId: number
  readonly agent: AgentRef
}

/** AeoRunStarted: the claiming agent began working on the run (status running). */
export async function startRun(deps: RunDeps, context: CommandContext, input: AgentRunInput): Promise<RunOutcome> {
  return handleCommand(deps, {
    aggregate: run,
    id: input.runId,
    command: { type: 'StartRun', agent: input.agent },
    context,
    visibleTo: input.agent.agent_org_id,
  })
}

/**
 * The capture a completion names, from its own stream (the log, so a capture ingested a moment ago counts
 * even before its read model shows it): it must exist in the run's organization (else not_found) and be
 * about the run's client (else aeo_capture_other_client).
 */
async function assertCaptureFor(deps: WriteDeps, captureId: number, run: { orgId: number; clientId: number }): Promise<void> {
  let first
  for await (const event of deps.store.readStream(`aeo_capture-${captureId}`, { maxCount: 1 })) first = decode(event)
  if (!first || first.metadata.org_id !== run.orgId) throw new NotFoundError('capture', captureId)
  if (first.type !== 'AeoCaptureIngested' || first.data.client_id !== run.clientId) {
    throw new DomainError(
      'aeo_capture_other_client',
      "The capture is about another client than the run's",
      `capture ${captureId} is not about client ${run.clientId}`,
    )
  }
}

/**
 * ingest_aeo_capture with a run_id: the run must exist in the client's organization (else not_found, like a
 * missing one), be about the same client (aeo_capture_other_client) and ask the same question on the same
 * engine (aeo_capture_run_mismatch). `sameQuestion` compares question ids the way the caller resolves
 * merges (a run queued before dedupe_aeo_queries names the merged id). Reads the run's first event from
 * the log, so a run queued a moment ago counts even before its read model shows it.
 */
export async function assertRunOfCapture(
  deps: Pick<WriteDeps, 'store'>,
  runId: number,
  capture: { orgId: number; clientId: number; queryId: number; engine: string },
  sameQuestion: (runQueryId: number, captureQueryId: number) => boolean,
): Promise<void> {
  let first
  for await (const event of deps.store.readStream(runStream(runId), { maxCount: 1 })) first = decode(event)
  if (first?.type !== 'AeoRunQueued' || first.metadata.org_id !== capture.orgId) throw new NotFoundError('run', runId)
  const queued = first.data
  if (queued.client_id !== capture.clientId) {
    throw new DomainError(
      'aeo_capture_other_client',
      "The capture is about another client than the run's",
      `run ${runId} is about client ${queued.client_id}`,
    )
  }
  if (!sameQuestion(queued.query_id, capture.queryId) || queued.engine !== capture.engine) {
    throw new DomainError(
      'aeo_capture_run_mismatch',
      "The capture's question or engine differs from its run's",
      `run ${runId} asks question ${queued.query_id} on ${queued.engine}; the capture is of question ${capture.queryId} on ${capture.engine}`,
    )
  }
}

/** AeoRunCompleted: only by the claiming agent, on a claimed or running run, with a capture of the run's client. */
export async function completeRun(
  deps: RunDeps,
  context: CommandContext,
  input: AgentRunInput & { captureId: number },
): Promise<RunOutcome> {
  const state = await loadState(deps.store, run, input.runId)
  const orgId = state.orgId
  if (orgId === null || (input.agent.agent_org_id !== null && input.agent.agent_org_id !== orgId))
    throw new NotFoundError('run', input.runId)
  await assertCaptureFor(deps, input.captureId, { orgId, clientId: state.clientId })
  const command = { type: 'CompleteRun' as const, agent: input.agent, capture_id: input.captureId }
  return handleCommand(deps, { aggregate: run, id: input.runId, command, context, visibleTo: input.agent.agent_org_id })
}

export interface FailResult {
  status: RunStatus
  attempts: number
  retry: boolean
  /** With retry: when the run can be claimed again. */
  retry_at: string | null
}

/**
 * AeoRunFailed: retried (queued again) while attempts < settings.maxAttempts, then failed for good. A
 * retried run waits settings.retryBackoffSeconds for its attempt, or `retryAfterSeconds` when the provider
 * said how long (a 429's Retry-After).
 */
export async function failRun(
  deps: RunDeps,
  context: CommandContext,
  input: AgentRunInput & { error: string; retryAfterSeconds?: number | undefined },
): Promise<FailResult> {
  const outcome = await handleCommand(deps, {
    aggregate: run,
    id: input.runId,
    command: {
      type: 'FailRun',
      agent: input.agent,
      error: input.error,
      max_attempts: deps.settings.maxAttempts,
      now: deps.clock().toISOString(),
      backoff_seconds: deps.settings.retryBackoffSeconds,
      retry_after_seconds: input.retryAfterSeconds,
    },
    context,
    visibleTo: input.agent.agent_org_id,
  })
  const failed = outcome.events.find((e) => e.type === 'AeoRunFailed')
  const retry = failed?.type === 'AeoRunFailed' ? failed.data.retry : false
  return { status: outcome.state.status, attempts: outcome.state.attempts, retry, retry_at: retry ? outcome.state.retryAt : null }
}

/** A session advisory lock per client, shared by every enqueuer and canceller in every process. */
const clientLockKey = (clientId: number) => `aeo_queue:${clientId}`

/**
 * Queue locks held at once per process (per database handle). Each holder keeps one pooled connection for
 * its session lock and uses a few more for its reads and appends, so an unbounded number of concurrent
 * enqueuers could take every connection and starve the holders; waiters beyond this wait here, holding none.
 */
const MAX_LOCK_HOLDERS = 4
const LOCK_RETRY_MS = 10

class Gate {
  #free = MAX_LOCK_HOLDERS
  readonly #waiting: (() => void)[] = []
  async enter(): Promise<void> {
    if (this.#free > 0) {
      this.#free--
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }
  leave(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#free++
  }
}
const gates = new WeakMap<object, Gate>()
function gateFor(db: object): Gate {
  let gate = gates.get(db)
  if (!gate) {
    gate = new Gate()
    gates.set(db, gate)
  }
  return gate
}

/**
 * Runs `work` for each client while holding that client's queue lock (a session advisory lock, on a
 * connection of its own), after the read models reached the log's head (so what `work` counts includes
 * every run appended before the lock). A lock held elsewhere is retried without keeping a connection.
 */
async function withClientLocks<T>(deps: QueueDeps, clientIds: readonly number[], work: (clientId: number) => Promise<T>): Promise<T[]> {
  const results: T[] = []
  const gate = gateFor(deps.db)
  for (const clientId of clientIds) {
    await gate.enter()
    try {
      for (;;) {
        const done = await deps.db.connection().execute(async (conn) => {
          const { rows } = await sql<{
            locked: boolean
          }>`select pg_try_advisory_lock(hashtext(${clientLockKey(clientId)})) as locked`.execute(conn)
          if (!rows[0]?.locked) return false
          try {
            await waitForHead(deps)
            results.push(await work(clientId))
          } finally {
            await sql`select pg_advisory_unlock(hashtext(${clientLockKey(clientId)}))`.execute(conn)
          }
          return true
        })
        if (done) break
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS))
      }
    } finally {
      gate.leave()
    }
  }
  return results
}

async function waitForHead(deps: QueueDeps): Promise<void> {
  const head = await deps.store.headPosition()
  if (head !== null) await waitFor(deps, head)
}

async function waitFor(deps: QueueDeps, position: Position): Promise<void> {
  if (!(await deps.waitForReadModels(position))) {
    throw new DomainError(
      'service_unavailable',
      'The read models are behind the log',
      'the run queue cannot be counted until they catch up; retry shortly',
    )
  }
}

/** Appends in parallel, a few at a time (every run is its own stream). */
async function inParallel<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await each(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker))
}

export interface EnqueueInput {
  readonly clientIds: readonly number[]
  readonly reason: 'sweep' | 'enqueue'
}

/**
 * Queues the runs due now for each client: for every active question × cadence engine, the month's
 * samples spread over its days (dueSamples) minus the runs of that pair this month that are not cancelled
 * or failed. Never more than due, even with concurrent enqueuers in several processes: each client is
 * counted and appended under its queue lock, and the lock is released only once the read models show the
 * new runs. Paused or deleted clients and disabled cadences queue nothing. Returns the number queued per
 * client, in the order given.
 */
export async function enqueueDueRuns(
  deps: QueueDeps,
  context: CommandContext,
  input: EnqueueInput,
): Promise<{ client_id: number; queued: number }[]> {
  return withClientLocks(deps, input.clientIds, async (clientId) => ({
    client_id: clientId,
    queued: await enqueueClient(deps, context, clientId, input.reason),
  }))
}

async function enqueueClient(deps: QueueDeps, context: CommandContext, clientId: number, reason: 'sweep' | 'enqueue'): Promise<number> {
  const [owner, cadence] = await Promise.all([deps.reads.client(clientId), deps.reads.cadence(clientId)])
  if (owner?.status !== 'active' || !cadence || !cadence.enabled) return 0
  const { month, day } = monthAndDay(deps.clock())
  const due = dueSamples(cadence.samples_per_month, day, daysInMonth(month))
  if (due === 0) return 0
  const [questions, counts] = await Promise.all([deps.reads.activeQuestions(clientId), deps.reads.monthRunCounts(clientId, month)])
  const counted = new Map(counts.map((c) => [`${c.query_id}:${c.engine}`, c]))
  const planned: Omit<Extract<RunCommand, { type: 'QueueRun' }>, 'run_id' | 'type'>[] = []
  for (const question of questions) {
    for (const engine of cadence.engines as readonly Engine[]) {
      const seen = counted.get(`${question.id}:${engine}`)
      const n = runsToQueue(due, seen?.live ?? 0)
      for (let i = 1; i <= n; i++) {
        planned.push({
          client_id: clientId,
          query_id: question.id,
          engine,
          month,
          geo_state: cadence.geo_state,
          priority: question.priority,
          sample: (seen?.total ?? 0) + i,
          reason,
        })
      }
    }
  }
  if (planned.length === 0) return 0
  const ids = await deps.ids.nextMany('aeo_run', planned.length)
  let last: Position | null = null
  await inParallel(
    planned.map((p, i) => ({ ...p, run_id: ids[i]! })),
    8,
    async (p) => {
      // A new stream (its id was just allocated): nothing to read, the append only has to be first.
      const events = run.decide({ type: 'QueueRun', ...p }, run.initialState())
      const result = await appendDecided(deps, context, runStream(p.run_id), events, 'no_stream', owner.org_id)
      if (last === null || deps.store.comparePositions(result.position, last) > 0) last = result.position
    },
  )
  if (last !== null) await waitFor(deps, last)
  return planned.length
}

export interface CancelInput {
  readonly clientId: number
  readonly month?: string | undefined
  readonly queryId?: number | undefined
  /** Only runs on these engines (none: every engine). */
  readonly engines?: readonly string[] | undefined
  /** Only runs on engines other than these (a cadence that dropped engines). */
  readonly exceptEngines?: readonly string[] | undefined
  readonly reason: CancelReason
  /**
   * Checked under the lock once the read models reached the head: false cancels nothing (a process manager
   * reacting late to a pause checks that the client is still paused, so runs queued since it was resumed stay).
   */
  readonly stillApplies?: () => Promise<boolean>
}

/**
 * Cancels the client's queued runs (optionally one month, one question, some engines), under the client's
 * queue lock so that no enqueuer adds behind it. Each cancel is an append to the run's stream with its
 * expected revision, so a concurrent claim wins or loses cleanly; a run that is no longer queued is left
 * alone. Returns the number cancelled.
 */
export async function cancelQueuedRuns(deps: QueueDeps, context: CommandContext, input: CancelInput): Promise<number> {
  const [cancelled] = await withClientLocks(deps, [input.clientId], async (clientId) => {
    if (input.stillApplies && !(await input.stillApplies())) return 0
    const ids = await deps.reads.queuedRunIds({
      clientId,
      month: input.month,
      queryId: input.queryId,
      engines: input.engines,
      exceptEngines: input.exceptEngines,
    })
    let count = 0
    let last: Position | null = null
    await inParallel(ids, 8, async (id) => {
      const outcome = await handleCommand(deps, {
        aggregate: run,
        id,
        command: { type: 'CancelRun', reason: input.reason },
        context,
        visibleTo: null,
      })
      if (outcome.events.length > 0) count++
      if (outcome.position && (last === null || deps.store.comparePositions(outcome.position, last) > 0)) last = outcome.position
    })
    if (last !== null) await waitFor(deps, last)
    return count
  })
  return cancelled ?? 0
}

/**
 * Returns stale claims to the queue: claimed or running runs whose lease ran out (AeoRunClaimExpired, or
 * AeoRunFailed when no attempts are left). Also forgets leases that expired (they no longer hold anything).
 * Returns the number of runs expired.
 */
export async function expireStaleClaims(deps: RunDeps, context: CommandContext): Promise<number> {
  const now = deps.clock()
  const ids = await deps.reads.staleClaimIds(now, 1000)
  let expired = 0
  await inParallel(ids, 4, async (id) => {
    const command = { type: 'ExpireClaim' as const, now: now.toISOString(), max_attempts: deps.settings.maxAttempts }
    const outcome = await handleCommand(deps, { aggregate: run, id, command, context, visibleTo: null })
    if (outcome.events.length > 0) expired++
  })
  await deps.db.deleteFrom('aeo_run_leases').where('expires_at', '<=', now).execute()
  return expired
}
