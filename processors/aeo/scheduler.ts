import { systemContext, type CommandContext } from '../../commands/command-handler.js'
import type { DecodedEvent } from '../../commands/event-store/decode.js'
import { cancelQueuedRuns, enqueueDueRuns, expireStaleClaims, type QueueDeps } from '../../commands/aeo/runs.js'
import type { CancelReason } from '../../domain/aeo/runs/run.js'
import { enrolledClientIds } from '../../projections/aeo/runs/queries.js'
import { runQueueReads } from '../../projections/aeo/runs/run-queue-reads.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import { warnOfUnansweredEngines } from './engine-availability.js'
import { subscriptionProcessor } from '../subscription.js'
import { sleep } from '../../commands/sleep.js'

/** How long the scheduler waits for the read models before a sweep or cancel gives up (and is retried). */
const READ_MODEL_WAIT_MS = 30_000
/** Stale claims are looked for this often (or at the sweep interval, when that is shorter). */
const EXPIRY_INTERVAL_MS = 30_000

export const CANCELLER_NAME = 'aeo_run_canceller'

export function queueDepsOf(deps: ProcessorDeps): QueueDeps {
  return {
    ...deps.write,
    db: deps.db,
    reads: runQueueReads(deps.read),
    settings: deps.aeo,
    waitForReadModels: (position) => deps.watermark.waitFor(position, READ_MODEL_WAIT_MS),
  }
}

/** A loop that runs `work` now and then every `intervalMs` (never two at once), until stopped. */
function periodic(name: string, deps: ProcessorDeps, intervalMs: number, work: () => Promise<void>): Processor {
  let controller: AbortController | undefined
  let loop: Promise<void> | undefined
  return {
    name,
    start() {
      if (loop) return
      const c = new AbortController()
      controller = c
      loop = (async () => {
        while (!c.signal.aborted) {
          try {
            await work()
          } catch (error) {
            if (!c.signal.aborted) deps.log.error({ err: error, processor: name }, 'scheduled work failed; trying again next time')
          }
          await sleep(intervalMs, c.signal)
        }
      })()
    },
    async stop() {
      controller?.abort()
      await loop
      loop = undefined
    },
  }
}

/** The daily sweep: queue what is due for every enrolled client of every organization. */
export async function sweepDueRuns(deps: ProcessorDeps): Promise<number> {
  const clients = await enrolledClientIds(deps.read, null)
  const results = await enqueueDueRuns(queueDepsOf(deps), systemContext('aeo-scheduler'), { clientIds: clients, reason: 'sweep' })
  const queued = results.reduce((sum, r) => sum + r.queued, 0)
  if (queued > 0) deps.log.info({ queued, clients: results.filter((r) => r.queued > 0).length }, 'aeo sweep queued runs')
  return queued
}

/** A command caused by an event: the event's correlation carries over, so the log shows why a run was cancelled. */
function causedBy(event: DecodedEvent): CommandContext {
  return {
    actor: { kind: 'system', id: 'aeo-scheduler' },
    requestId: null,
    correlationId: event.metadata.correlation_id ?? event.id,
    causationId: event.id,
  }
}

/**
 * The process manager that cancels queued runs nobody wants any more: a question deactivated or deleted, a
 * client paused or deleted, a cadence disabled (or an engine dropped from it). Each cancel checks, under the
 * client's queue lock and with the read models at the log's head, that the reason still holds, so a late
 * delivery never cancels runs queued after the client, question or cadence came back.
 */
export async function cancelForEvent(deps: ProcessorDeps, event: DecodedEvent): Promise<number> {
  const queue = queueDepsOf(deps)
  const context = causedBy(event)
  const read = deps.read
  const cancel = (
    clientId: number,
    reason: CancelReason,
    extra: { queryId?: number; exceptEngines?: readonly string[] },
    stillApplies: () => Promise<boolean>,
  ) => cancelQueuedRuns(queue, context, { clientId, reason, ...extra, stillApplies })
  const questionGone = (queryId: number) => async () => {
    const q = await read.selectFrom('aeo_queries').select('active').where('id', '=', queryId).executeTakeFirst()
    return !q?.active
  }
  switch (event.type) {
    case 'AeoQuestionUpdated': {
      const d = event.data
      if (d.active !== false) return 0
      return cancel(d.client_id, 'question_inactive', { queryId: d.query_id }, questionGone(d.query_id))
    }
    case 'AeoQuestionDeleted': {
      const d = event.data
      return cancel(d.client_id, 'question_deleted', { queryId: d.query_id }, questionGone(d.query_id))
    }
    case 'ClientStatusChanged': {
      const d = event.data
      if (d.to === 'active') return 0
      const reason: CancelReason = d.to === 'deleted' ? 'client_deleted' : 'client_paused'
      return cancel(d.client_id, reason, {}, async () => {
        const c = await read.selectFrom('clients').select('status').where('id', '=', d.client_id).executeTakeFirst()
        return c?.status !== 'active'
      })
    }
    case 'AeoCadenceSet': {
      const d = event.data
      const current = async () => read.selectFrom('aeo_cadences').selectAll().where('client_id', '=', d.client_id).executeTakeFirst()
      if (!d.enabled) return cancel(d.client_id, 'cadence_disabled', {}, async () => (await current())?.enabled === false)
      // Still enabled: cancel the queued runs of engines it no longer has, if this is still the cadence in force
      // (a later change is handled when its own event comes).
      const engines: readonly string[] = d.engines
      return cancel(d.client_id, 'cadence_disabled', { exceptEngines: engines }, async () => {
        const c = await current()
        return !!c && c.enabled && c.engines.length === engines.length && c.engines.every((e) => engines.includes(e))
      })
    }
    default:
      return 0
  }
}

export function schedulerProcessors(deps: ProcessorDeps): Processor[] {
  const sweepMs = deps.aeoProcessors.sweepIntervalMs
  return [
    periodic('aeo-sweep', deps, sweepMs, async () => {
      await sweepDueRuns(deps)
    }),
    periodic('aeo-claim-expiry', deps, Math.min(EXPIRY_INTERVAL_MS, sweepMs), async () => {
      const expired = await expireStaleClaims(queueDepsOf(deps), systemContext('aeo-scheduler'))
      if (expired > 0) deps.log.info({ expired }, 'aeo stale claims returned to the queue')
    }),
    subscriptionProcessor({
      name: CANCELLER_NAME,
      store: deps.store,
      db: deps.db,
      log: deps.log,
      types: new Set(['AeoQuestionUpdated', 'AeoQuestionDeleted', 'ClientStatusChanged', 'AeoCadenceSet']),
      handle: async (event) => {
        await cancelForEvent(deps, event)
        // After the cancel: a retried delivery (the cancel failed) would otherwise log the enrolment twice.
        await warnOfUnansweredEngines(deps, event)
      },
    }),
  ]
}
