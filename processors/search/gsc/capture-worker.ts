import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { loadClient } from '../../../commands/clients.js'
import type { CommandContext } from '../../../commands/command-handler.js'
import {
  failGscCapture,
  failGscCaptureAttempt,
  loadGscCapture,
  queueGscCapture,
  recordGscRows,
  startGscCapture,
  type CaptureRef,
} from '../../../commands/search/gsc/captures.js'
import { GscCredentialsError, openGscCredentials } from '../../../commands/search/gsc/credentials.js'
import { loadGscProperty } from '../../../commands/search/gsc/property.js'
import { sleep } from '../../../commands/sleep.js'
import { addDays, dayOf, defaultCaptureRange } from '../../../domain/search/gsc/dates.js'
import type { GscError } from '../../../domain/search/gsc/events.js'
import { CADENCE_DAYS } from '../../../domain/search/gsc/gsc-property.js'
import { captureRetryDelayMs, isFinished, type GscCaptureState } from '../../../domain/search/gsc/gsc-capture.js'
import { cadenceCandidates, dueCaptures } from '../../../projections/search/gsc/queries.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
import { boundedCall, RateLimiter } from './bounded-call.js'
import { API_ROW_LIMIT, GscProviderError, type ConnectSearchAnalytics } from './search-analytics.js'
import { sandboxOrgId } from '../../sandbox-fiction.js'

const ACTOR_ID = 'gsc-capture-worker'
/** The session advisory lock that keeps capture work to one process at a time (others stand by). */
const LOCK_KEY = 'processor:gsc-captures'
/** Captures worked on at once by this process (each makes one call at a time). */
export const CAPTURE_CONCURRENCY = 2

export interface CaptureWorkerOptions {
  /** Rows asked per call (the API's most, 25,000, unless a test pages smaller). */
  readonly rowLimit?: number
  readonly concurrency?: number
}

type DueCapture = Awaited<ReturnType<typeof dueCaptures>>[number]

/**
 * The Search Console capture worker. Every poll (SEARCH_POLL_MS) it queues the weekly captures that are
 * due, then takes up to CAPTURE_CONCURRENCY due captures (queued, running ones a stopped worker left, and
 * retrying ones whose time has come) and pulls each one day at a time, page by page, recording every page as
 * it arrives. Each call is bounded (timeout, retries with backoff, the provider rate limit); an outage that
 * outlasts them fails the attempt (the capture resumes later where it stopped), a refusal (401, 403) fails
 * the capture at once with its code. One process works captures at a time (a session advisory lock held for
 * as long as it runs); another takes over when it stops.
 */
export class GscCaptureWorker implements Processor {
  readonly name = 'gsc-capture-worker'
  private readonly limiter: RateLimiter
  private readonly rowLimit: number
  private readonly concurrency: number
  private readonly inHand = new Map<number, Promise<void>>()
  private controller: AbortController | undefined
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  /** A wake that came during a pass: the next poll follows at once. */
  private woken = false

  constructor(
    private readonly deps: ProcessorDeps,
    private readonly connect: ConnectSearchAnalytics,
    options: CaptureWorkerOptions = {},
  ) {
    this.limiter = new RateLimiter(deps.search.requestsPerSecond)
    this.rowLimit = options.rowLimit ?? API_ROW_LIMIT
    this.concurrency = options.concurrency ?? CAPTURE_CONCURRENCY
  }

  start(): void {
    if (this.loop) return
    this.controller = new AbortController()
    this.loop = this.run(this.controller.signal)
  }

  /** Stops polling and aborts the calls in flight; a capture cut off stays running and resumes at its next row. */
  async stop(): Promise<void> {
    this.controller?.abort()
    this.wakeUp?.()
    await this.loop?.catch(() => undefined)
    this.loop = undefined
    await Promise.allSettled([...this.inHand.values()])
  }

  /** Polls now instead of at the next SEARCH_POLL_MS (a capture was queued). */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { db, log, search } = this.deps
    while (!signal.aborted) {
      try {
        await db.connection().execute(async (conn) => {
          const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended(${LOCK_KEY}, 0)) as locked`.execute(
            conn,
          )
          if (!rows[0]?.locked) return sleep(search.pollMs, signal)
          try {
            while (!signal.aborted) {
              this.woken = false
              await this.pass(signal)
              if (!this.woken) {
                await sleep(search.pollMs, signal, (wake) => {
                  this.wakeUp = wake
                })
              }
              this.wakeUp = undefined
            }
          } finally {
            // The captures in hand finish (or stop at their next call) before another process may take them.
            await Promise.allSettled([...this.inHand.values()])
            await sql`select pg_advisory_unlock(hashtextextended(${LOCK_KEY}, 0))`.execute(conn).catch(() => {})
          }
        })
      } catch (error) {
        if (signal.aborted) return
        log.error({ err: error, processor: this.name }, 'gsc capture worker failed; starting over')
        await sleep(search.pollMs, signal)
      }
    }
  }

  /** One poll: the weekly captures due, then the due captures this process has room for. */
  private async pass(signal: AbortSignal): Promise<void> {
    const now = this.deps.write.clock()
    // The public sandbox's captures are its seed's fiction, recorded by the seed itself: never fetched (as rank
    // checks and keyword metrics leave it alone), or the worker would fail them for want of credentials.
    const sandboxOrg = await sandboxOrgId(this.deps.store)
    await this.queueWeekly(now, sandboxOrg)
    const free = this.concurrency - this.inHand.size
    if (free <= 0 || signal.aborted) return
    const due = (await dueCaptures(this.deps.read, now, this.concurrency + this.inHand.size)).filter((c) => c.org_id !== sandboxOrg)
    for (const capture of due.filter((c) => !this.inHand.has(c.id)).slice(0, free)) {
      const work = this.work(capture, signal).then(
        (worked) => {
          this.inHand.delete(capture.id)
          // A slot is free: the next capture need not wait for the poll (unless this one was only looked at,
          // as when the read models lag behind its stream, which a poll at once would only look at again).
          if (worked) this.wake()
        },
        () => {
          this.inHand.delete(capture.id)
        },
      )
      this.inHand.set(capture.id, work)
    }
  }

  /** Queues the weekly capture of every client whose cadence wants one (the property's stream decides, once). */
  private async queueWeekly(now: Date, sandboxOrg: number | null): Promise<void> {
    const today = dayOf(now)
    const endedBefore = addDays(defaultCaptureRange(today).end, -(CADENCE_DAYS - 1))
    for (const client of await cadenceCandidates(this.deps.read, endedBefore)) {
      if (client.org_id === sandboxOrg) continue
      try {
        const queued = await queueGscCapture(this.deps.write, this.context(), {
          callerOrgId: client.org_id,
          clientId: client.client_id,
          trigger: 'cadence',
        })
        if (queued.created) this.deps.log.info({ client_id: client.client_id, capture_id: queued.captureId }, 'gsc weekly capture queued')
      } catch (error) {
        this.deps.log.warn({ err: error, client_id: client.client_id }, 'gsc weekly capture could not be queued')
      }
    }
  }

  /** One capture, from where it stands to its end or its next failure; never throws. true: it was worked on. */
  private async work(capture: DueCapture, signal: AbortSignal): Promise<boolean> {
    const context = this.context()
    const ref: CaptureRef = { orgId: capture.org_id, captureId: capture.id }
    const log = this.deps.log.child({ capture_id: capture.id, client_id: capture.client_id })
    const write = this.deps.write
    const fail = (error: GscError) => failGscCapture(write, context, { ...ref, clientId: capture.client_id, error })
    try {
      let state = await loadGscCapture(write, capture.id)
      if (isFinished(state)) return false
      // The read model may lag: the capture's own stream says when a retry is due.
      if (state.status === 'retrying' && state.retryAt !== null && Date.parse(state.retryAt) > write.clock().getTime()) return false
      const client = await loadClient(write.store, capture.client_id)
      if (client.status === 'deleted') {
        await fail({ code: 'client_deleted', message: 'The client was deleted' })
        return true
      }
      const property = await loadGscProperty(write, capture.client_id)
      if (property.connection === null) {
        await fail({ code: 'gsc_not_connected', message: 'The client has no Search Console property (it was removed)' })
        return true
      }
      let source: ReturnType<ConnectSearchAnalytics>
      try {
        source = this.connect(openGscCredentials(this.deps.serviceKey, property.connection.sealedCredentials))
      } catch (error) {
        if (!(error instanceof GscCredentialsError)) throw error
        await fail({ code: error.code, message: error.message })
        return true
      }
      state = await startGscCapture(write, context, {
        ...ref,
        clientId: capture.client_id,
        property: capture.property,
        range: { start: capture.start_date, end: capture.end_date },
      })
      log.info({ attempt: state.attempts, from: state.cursorDate, row: state.cursorRow }, 'gsc capture working')
      while (state.status === 'running' && !signal.aborted) {
        let rows: Awaited<ReturnType<typeof source.dayPage>>
        try {
          const request = { property: state.property, date: state.cursorDate, startRow: state.cursorRow, rowLimit: this.rowLimit }
          rows = await boundedCall(() => source.dayPage(request, signal), {
            maxAttempts: this.deps.search.maxAttempts,
            backoffBaseMs: this.deps.search.backoffBaseMs,
            limiter: this.limiter,
            signal,
            onRetry: (error, attempt, delayMs) =>
              log.warn(
                { code: error.code, status: error.status, attempt, delay_ms: delayMs },
                `gsc call failed; retrying: ${error.message}`,
              ),
          })
        } catch (error) {
          if (signal.aborted) return true
          await this.failed(state, ref, context, error)
          return true
        }
        state = await recordGscRows(write, context, {
          ...ref,
          date: state.cursorDate,
          startRow: state.cursorRow,
          rows,
          dayComplete: rows.length < this.rowLimit,
        })
        // A property removed meanwhile is no longer read: checked at each new day.
        if (state.status === 'running' && state.cursorRow === 0 && (await loadGscProperty(write, capture.client_id)).connection === null) {
          await fail({ code: 'gsc_not_connected', message: 'The client has no Search Console property (it was removed)' })
          return true
        }
      }
      if (state.status === 'completed') log.info({ rows: state.rowCount }, 'gsc capture completed')
      return true
    } catch (error) {
      if (signal.aborted) return false
      // An error of the worker's own (a write refused, the database gone): the attempt is recorded as failed
      // when it can be, so a capture that keeps meeting it fails after its attempts instead of being taken up
      // at every poll; otherwise the next poll takes it up as its stream says.
      log.error({ err: error }, 'gsc capture stopped on an error')
      const message = `The capture worker stopped on an error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000)
      const retryAt = new Date(write.clock().getTime() + captureRetryDelayMs(1, this.deps.search.backoffBaseMs))
      await failGscCaptureAttempt(write, context, { ...ref, error: { code: 'gsc_capture_interrupted', message }, retryAt }).catch(() => {})
      return false
    }
  }

  /** A provider failure: a refusal fails the capture; an outage fails the attempt, retried later from where it stopped. */
  private async failed(state: GscCaptureState, ref: CaptureRef, context: CommandContext, error: unknown): Promise<void> {
    const provider =
      error instanceof GscProviderError
        ? error
        : new GscProviderError('gsc_unavailable', `Search Console call failed: ${String(error)}`, true)
    const gscError: GscError = { code: provider.code, message: provider.message.slice(0, 1000) }
    const log = this.deps.log.child({ capture_id: ref.captureId })
    if (!provider.retryable) {
      log.warn({ code: provider.code, status: provider.status }, `gsc capture failed: ${provider.message}`)
      await failGscCapture(this.deps.write, context, { ...ref, clientId: state.clientId, error: gscError })
      return
    }
    const retryAt = new Date(this.deps.write.clock().getTime() + captureRetryDelayMs(state.attempts, this.deps.search.backoffBaseMs))
    log.warn({ code: provider.code, attempt: state.attempts, retry_at: retryAt }, `gsc capture attempt failed: ${provider.message}`)
    await failGscCaptureAttempt(this.deps.write, context, { ...ref, error: gscError, retryAt })
  }

  /** One correlation id per pass and per capture, so `ops replay` groups a capture's steps. */
  private context(): CommandContext {
    return { actor: { kind: 'system', id: ACTOR_ID }, requestId: null, correlationId: randomUUID(), causationId: null }
  }
}
