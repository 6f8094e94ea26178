import type { Aggregate } from '../../shared/aggregate.js'
import type { ScanCadenceEvent, ScanFrequency } from './events.js'

/** A client's scan cadence: stream `scan_cadence-<client_id>`; which scan type the scheduler queues, how often. */
export const scanCadenceStream = (clientId: number) => `scan_cadence-${clientId}`

export interface ScanCadenceState {
  readonly exists: boolean
  readonly frequency: ScanFrequency
  readonly scanType: string
}

export type ScanCadenceCommand = { type: 'SetScanCadence'; client_id: number; frequency: ScanFrequency; scan_type: string }

const initialState = (): ScanCadenceState => ({ exists: false, frequency: 'off', scanType: 'crawl' })

export const scanCadence: Aggregate<ScanCadenceState, ScanCadenceCommand, ScanCadenceEvent> = {
  streamOf: scanCadenceStream,
  initialState,
  evolve: (_state, event) => ({ exists: true, frequency: event.data.frequency, scanType: event.data.scan_type }),
  decide(command, state) {
    if (state.exists && state.frequency === command.frequency && state.scanType === command.scan_type) return [] // a retried request
    return [{ type: 'ScanCadenceSet', data: { client_id: command.client_id, frequency: command.frequency, scan_type: command.scan_type } }]
  },
}
