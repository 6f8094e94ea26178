import { captureRange, dayOf, defaultCaptureRange, type DayRange } from '../../../domain/search/gsc/dates.js'
import type { GscError, GscRow } from '../../../domain/search/gsc/events.js'
import { gscCapture, isFinished, type GscCaptureState } from '../../../domain/search/gsc/gsc-capture.js'
import { gscProperty, type GscPropertyCommand } from '../../../domain/search/gsc/gsc-property.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'

/** One capture's state, folded from its stream (status new: nothing recorded yet). */
export function loadGscCapture(deps: Pick<WriteDeps, 'store'>, captureId: number): Promise<GscCaptureState> {
  return loadState(deps.store, gscCapture, captureId)
}

export interface QueuedCapture {
  /** The capture queued now, or the open one that answered instead; null when the cadence had nothing due. */
  readonly captureId: number | null
  /** A capture was queued by this call. */
  readonly created: boolean
  readonly position: Position | null
}

/**
 * run_gsc_capture (trigger manual) and the weekly cadence (trigger cadence): queues a capture of the range
 * (defaults: domain/search/gsc/dates.ts captureRange) unless the client has one open, which answers instead.
 * The cadence only queues when a week of new complete days has passed since the last capture's end.
 */
export async function queueGscCapture(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    start?: string | undefined
    end?: string | undefined
    trigger: 'manual' | 'cadence'
  },
): Promise<QueuedCapture> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const today = dayOf(deps.clock())
  const range: DayRange = input.trigger === 'cadence' ? defaultCaptureRange(today) : captureRange(today, input)
  let captureId: number | null = null
  const outcome = await handleCommand(deps, {
    aggregate: gscProperty,
    id: owner.id,
    orgId: owner.orgId,
    context,
    command: async (state): Promise<GscPropertyCommand> => {
      const lastOpen = state.lastCaptureId !== null && !isFinished(await loadGscCapture(deps, state.lastCaptureId))
      // An id only when something may be queued: an open capture answers without spending one.
      if (!lastOpen && state.connection !== null) captureId ??= await deps.ids.next('gsc_capture')
      return {
        type: 'QueueCapture',
        client_id: owner.id,
        capture_id: captureId ?? state.lastCaptureId ?? 0,
        range,
        trigger: input.trigger,
        last_capture_open: lastOpen,
        today,
      }
    },
  })
  if (outcome.events.length > 0) return { captureId, created: true, position: outcome.position }
  const open = outcome.state.lastCaptureId
  return { captureId: input.trigger === 'manual' ? open : null, created: false, position: null }
}

/** What every worker command names: the capture and the organization its events belong to. */
export interface CaptureRef {
  readonly orgId: number
  readonly captureId: number
}

function onCapture(deps: WriteDeps, context: CommandContext, ref: CaptureRef, command: Parameters<typeof gscCapture.decide>[0]) {
  return handleCommand(deps, { aggregate: gscCapture, id: ref.captureId, orgId: ref.orgId, context, command })
}

/** The worker takes a capture up: a new attempt when it was queued or waiting to retry; nothing when it is running already. */
export async function startGscCapture(
  deps: WriteDeps,
  context: CommandContext,
  ref: CaptureRef & { clientId: number; property: string; range: DayRange },
): Promise<GscCaptureState> {
  const outcome = await onCapture(deps, context, ref, {
    type: 'StartCapture',
    client_id: ref.clientId,
    capture_id: ref.captureId,
    property: ref.property,
    start_date: ref.range.start,
    end_date: ref.range.end,
  })
  return outcome.state
}

/** One API page of a day, recorded in order (rows already recorded are left out); the last day's last page completes the capture. */
export async function recordGscRows(
  deps: WriteDeps,
  context: CommandContext,
  ref: CaptureRef & { date: string; startRow: number; rows: readonly GscRow[]; dayComplete: boolean },
): Promise<GscCaptureState> {
  const outcome = await onCapture(deps, context, ref, {
    type: 'RecordRows',
    date: ref.date,
    start_row: ref.startRow,
    rows: ref.rows,
    day_complete: ref.dayComplete,
  })
  return outcome.state
}

/** A retryable failure of the attempt in hand: retried at `retryAt`, or failed for good after the last attempt. */
export async function failGscCaptureAttempt(
  deps: WriteDeps,
  context: CommandContext,
  ref: CaptureRef & { error: GscError; retryAt: Date },
): Promise<GscCaptureState> {
  const outcome = await onCapture(deps, context, ref, { type: 'FailAttempt', error: ref.error, retry_at: ref.retryAt.toISOString() })
  return outcome.state
}

/** A failure no retry mends: the capture stops with the error. */
export async function failGscCapture(
  deps: WriteDeps,
  context: CommandContext,
  ref: CaptureRef & { clientId: number; error: GscError },
): Promise<GscCaptureState> {
  const outcome = await onCapture(deps, context, ref, {
    type: 'FailCapture',
    client_id: ref.clientId,
    capture_id: ref.captureId,
    error: ref.error,
  })
  return outcome.state
}
