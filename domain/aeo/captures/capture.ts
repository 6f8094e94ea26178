import type { z } from 'zod'
import type { Aggregate } from '../../shared/aggregate.js'
import { NotFoundError } from '../../shared/errors.js'
import type { AeoCaptureEvent, AeoCaptureIngested, AeoReport } from './events.js'

/** One captured answer: stream `aeo_capture-<capture_id>` (ingested once, re-analyzed, its raw record pruned). */
export const captureStream = (captureId: number) => `aeo_capture-${captureId}`

export type CaptureData = z.infer<typeof AeoCaptureIngested>

export interface CaptureState {
  readonly exists: boolean
  /** The capture as ingested, with its current report and analysis version. */
  readonly capture: CaptureData | null
  readonly recordPruned: boolean
}

export type CaptureCommand =
  | { type: 'IngestCapture'; capture: CaptureData }
  | { type: 'ReanalyzeCapture'; capture_id: number; analysis_version: number; report: z.infer<typeof AeoReport> }
  | { type: 'PruneCaptureRecord'; capture_id: number }

const initialState = (): CaptureState => ({ exists: false, capture: null, recordPruned: false })

function evolve(state: CaptureState, event: AeoCaptureEvent): CaptureState {
  switch (event.type) {
    case 'AeoCaptureIngested':
      return { exists: true, capture: event.data, recordPruned: false }
    case 'AeoCaptureReanalyzed':
      return state.capture
        ? { ...state, capture: { ...state.capture, analysis_version: event.data.analysis_version, report: event.data.report } }
        : state
    case 'AeoCaptureRecordPruned':
      return { ...state, recordPruned: true }
  }
}

function decide(command: CaptureCommand, state: CaptureState): AeoCaptureEvent[] {
  switch (command.type) {
    case 'IngestCapture':
      // A capture id is allocated once; a retried append of the same capture changes nothing.
      return state.exists ? [] : [{ type: 'AeoCaptureIngested', data: command.capture }]
    case 'ReanalyzeCapture': {
      if (!state.capture) throw new NotFoundError('capture', command.capture_id)
      const { capture_id, client_id } = state.capture
      return [
        {
          type: 'AeoCaptureReanalyzed',
          data: { capture_id, client_id, analysis_version: command.analysis_version, report: command.report },
        },
      ]
    }
    case 'PruneCaptureRecord':
      if (!state.capture || state.recordPruned) return []
      return [{ type: 'AeoCaptureRecordPruned', data: { capture_id: state.capture.capture_id, client_id: state.capture.client_id } }]
  }
}

export const capture: Aggregate<CaptureState, CaptureCommand, AeoCaptureEvent> = { streamOf: captureStream, initialState, evolve, decide }
