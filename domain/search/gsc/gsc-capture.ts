import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import { addDays, daysInRange } from './dates.js'
import { GSC_ROWS_PER_EVENT, type GscCaptureEvent, type GscError, type GscRow } from './events.js'

/**
 * One Search Console capture, one stream (`gsc_capture-<capture_id>`): its attempts and its rows, day by
 * day from the first day of its range. The state keeps where the worker stands (the day, and the API's
 * startRow within it) and the query × page keys already recorded for that day, so a worker that stops
 * anywhere (a crash, a deploy, an outage) resumes at the next row and never records a key twice.
 */
export const gscCaptureStream = (captureId: number) => `gsc_capture-${captureId}`

/** Attempts a capture gets before an outage fails it for good (each resumes where the last stopped). */
export const MAX_CAPTURE_ATTEMPTS = 5

/**
 * How long a capture waits before its next attempt after the `attempt`-th failed: thirty times the
 * provider backoff base, doubling (defaults: 1, 2, 4 and 8 minutes), since each attempt already retried its
 * calls and an outage or a spent quota outlasts seconds.
 */
export function captureRetryDelayMs(attempt: number, backoffBaseMs: number): number {
  return backoffBaseMs * 30 * 2 ** Math.max(0, attempt - 1)
}

export type GscCaptureStatus = 'new' | 'running' | 'retrying' | 'completed' | 'failed'

export interface GscCaptureState {
  readonly captureId: number
  readonly clientId: number
  readonly status: GscCaptureStatus
  readonly property: string
  readonly startDate: string
  readonly endDate: string
  readonly attempts: number
  /** When a capture waiting to retry may be taken up again (ISO-8601); null otherwise. */
  readonly retryAt: string | null
  /** The day the worker records next; after endDate once every day is recorded. */
  readonly cursorDate: string
  /** The API's startRow within cursorDate to ask for next. */
  readonly cursorRow: number
  /** `query\npage` of the rows recorded for cursorDate. */
  readonly dayKeys: ReadonlySet<string>
  readonly rowCount: number
}

export type GscCaptureCommand =
  | { type: 'StartCapture'; client_id: number; capture_id: number; property: string; start_date: string; end_date: string }
  /**
   * One page of the API for `date`, asked from `start_row`: recorded as events of at most GSC_ROWS_PER_EVENT
   * rows, in one append. `day_complete`: the page was the day's last (shorter than the row limit asked).
   */
  | { type: 'RecordRows'; date: string; start_row: number; rows: readonly GscRow[]; day_complete: boolean }
  /** A retryable failure: retried at `retry_at`, or the capture fails once it had MAX_CAPTURE_ATTEMPTS attempts. */
  | { type: 'FailAttempt'; error: GscError; retry_at: string }
  /** A failure no retry mends (refused credentials, no property). */
  | { type: 'FailCapture'; client_id: number; capture_id: number; error: GscError }

const initialState = (): GscCaptureState => ({
  captureId: 0,
  clientId: 0,
  status: 'new',
  property: '',
  startDate: '',
  endDate: '',
  attempts: 0,
  retryAt: null,
  cursorDate: '',
  cursorRow: 0,
  dayKeys: new Set(),
  rowCount: 0,
})

export const isFinished = (state: GscCaptureState) => state.status === 'completed' || state.status === 'failed'

const rowKey = (row: Pick<GscRow, 'query' | 'page'>) => `${row.query}\n${row.page}`

function evolve(state: GscCaptureState, event: GscCaptureEvent): GscCaptureState {
  switch (event.type) {
    case 'GscCaptureStarted': {
      const d = event.data
      const first = state.status === 'new'
      return {
        ...state,
        captureId: d.capture_id,
        clientId: d.client_id,
        status: 'running',
        property: d.property,
        startDate: d.start_date,
        endDate: d.end_date,
        attempts: d.attempt,
        retryAt: null,
        cursorDate: first ? d.start_date : state.cursorDate,
      }
    }
    case 'GscRowsRecorded': {
      const d = event.data
      const rowCount = d.first_row_no + d.rows.length
      if (d.day_complete) return { ...state, cursorDate: addDays(d.date, 1), cursorRow: 0, dayKeys: new Set(), rowCount }
      const dayKeys = new Set(state.dayKeys)
      for (const row of d.rows) dayKeys.add(rowKey(row))
      return { ...state, cursorRow: d.start_row + d.api_rows, dayKeys, rowCount }
    }
    case 'GscCaptureAttemptFailed':
      return { ...state, status: 'retrying', attempts: event.data.attempt, retryAt: event.data.retry_at }
    case 'GscCaptureCompleted':
      return { ...state, status: 'completed', rowCount: event.data.row_count }
    case 'GscCaptureFailed':
      return { ...state, status: 'failed' }
    default:
      return assertNever(event)
  }
}

function notRunning(state: GscCaptureState, what: string): never {
  throw new DomainError('gsc_capture_not_running', `The capture is ${state.status}`, `${what}: capture ${state.captureId}`)
}

/** The events of one API page: the part not recorded yet, in chunks, keys already recorded left out. */
function recordRows(command: Extract<GscCaptureCommand, { type: 'RecordRows' }>, state: GscCaptureState): GscCaptureEvent[] {
  if (state.status !== 'running') notRunning(state, 'record rows')
  // A day already behind the cursor, or rows already behind it: a page recorded before (a retried append).
  if (command.date < state.cursorDate) return []
  if (command.date > state.cursorDate || command.start_row > state.cursorRow) {
    throw new DomainError(
      'gsc_capture_gap',
      'Rows must be recorded in order',
      `capture ${state.captureId} expects ${state.cursorDate} from row ${state.cursorRow}, got ${command.date} from row ${command.start_row}`,
    )
  }
  const skip = state.cursorRow - command.start_row
  const fresh = command.rows.slice(skip)
  if (fresh.length === 0 && !command.day_complete) return []
  const seen = new Set(state.dayKeys)
  const events: GscCaptureEvent[] = []
  let rowNo = state.rowCount
  const chunks = Math.max(1, Math.ceil(fresh.length / GSC_ROWS_PER_EVENT))
  for (let i = 0; i < chunks; i++) {
    const chunk = fresh.slice(i * GSC_ROWS_PER_EVENT, (i + 1) * GSC_ROWS_PER_EVENT)
    const rows: GscRow[] = []
    for (const row of chunk) {
      const key = rowKey(row)
      if (seen.has(key)) continue
      seen.add(key)
      rows.push(row)
    }
    events.push({
      type: 'GscRowsRecorded',
      data: {
        client_id: state.clientId,
        capture_id: state.captureId,
        date: command.date,
        start_row: state.cursorRow + i * GSC_ROWS_PER_EVENT,
        api_rows: chunk.length,
        first_row_no: rowNo,
        day_complete: command.day_complete && i === chunks - 1,
        rows,
      },
    })
    rowNo += rows.length
  }
  if (command.day_complete && command.date >= state.endDate) {
    events.push({
      type: 'GscCaptureCompleted',
      data: {
        client_id: state.clientId,
        capture_id: state.captureId,
        row_count: rowNo,
        days: daysInRange(state.startDate, state.endDate),
      },
    })
  }
  return events
}

function decide(command: GscCaptureCommand, state: GscCaptureState): GscCaptureEvent[] {
  switch (command.type) {
    case 'StartCapture': {
      // Running already: a worker resumes the attempt in hand (after a restart); finished: nothing to start.
      if (state.status === 'running' || isFinished(state)) return []
      return [
        {
          type: 'GscCaptureStarted',
          data: {
            client_id: command.client_id,
            capture_id: command.capture_id,
            property: command.property,
            start_date: command.start_date,
            end_date: command.end_date,
            attempt: state.attempts + 1,
          },
        },
      ]
    }
    case 'RecordRows':
      return recordRows(command, state)
    case 'FailAttempt': {
      if (state.status !== 'running') notRunning(state, 'fail an attempt')
      const base = { client_id: state.clientId, capture_id: state.captureId, attempt: state.attempts, error: command.error }
      if (state.attempts >= MAX_CAPTURE_ATTEMPTS) return [{ type: 'GscCaptureFailed', data: base }]
      return [{ type: 'GscCaptureAttemptFailed', data: { ...base, retry_at: command.retry_at } }]
    }
    case 'FailCapture':
      if (isFinished(state)) return []
      // Named by the command: a capture refused before it ever started has no ids in its state.
      return [
        {
          type: 'GscCaptureFailed',
          data: { client_id: command.client_id, capture_id: command.capture_id, attempt: state.attempts, error: command.error },
        },
      ]
    default:
      return assertNever(command)
  }
}

export const gscCapture: Aggregate<GscCaptureState, GscCaptureCommand, GscCaptureEvent> = {
  streamOf: gscCaptureStream,
  initialState,
  evolve,
  decide,
  entity: 'gsc capture',
}
