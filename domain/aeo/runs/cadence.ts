import type { Aggregate } from '../../shared/aggregate.js'
import type { Engine } from '../engines.js'
import type { AeoCadenceEvent } from './events.js'

/** A client's AI Visibility cadence: stream `aeo_cadence-<client_id>`. */
export const cadenceStream = (clientId: number) => `aeo_cadence-${clientId}`

export interface CadenceState {
  readonly exists: boolean
  readonly clientId: number
  readonly enabled: boolean
  readonly samplesPerMonth: number
  readonly engines: readonly Engine[]
  readonly geoState: string | null
}

export type CadenceCommand = {
  type: 'SetCadence'
  client_id: number
  enabled: boolean
  samples_per_month: number
  engines: readonly Engine[]
  geo_state: string | null
}

const initialState = (): CadenceState => ({ exists: false, clientId: 0, enabled: false, samplesPerMonth: 0, engines: [], geoState: null })

function evolve(_state: CadenceState, event: AeoCadenceEvent): CadenceState {
  const d = event.data
  return {
    exists: true,
    clientId: d.client_id,
    enabled: d.enabled,
    samplesPerMonth: d.samples_per_month,
    engines: d.engines,
    geoState: d.geo_state,
  }
}

/** Engines once each, in the order first given. */
export function uniqueEngines(engines: readonly Engine[]): Engine[] {
  return [...new Set(engines)]
}

function decide(command: CadenceCommand, state: CadenceState): AeoCadenceEvent[] {
  const engines = uniqueEngines(command.engines)
  const unchanged =
    state.exists &&
    state.enabled === command.enabled &&
    state.samplesPerMonth === command.samples_per_month &&
    state.geoState === command.geo_state &&
    state.engines.length === engines.length &&
    state.engines.every((e, i) => e === engines[i])
  if (unchanged) return []
  return [
    {
      type: 'AeoCadenceSet',
      data: {
        client_id: command.client_id,
        enabled: command.enabled,
        samples_per_month: command.samples_per_month,
        engines,
        geo_state: command.geo_state,
      },
    },
  ]
}

export const cadence: Aggregate<CadenceState, CadenceCommand, AeoCadenceEvent> = { streamOf: cadenceStream, initialState, evolve, decide }

/** Days in a `YYYY-MM` month (UTC calendar). */
export function daysInMonth(month: string): number {
  const [year, m] = month.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, m, 0)).getUTCDate()
}

/** The UTC month (`YYYY-MM`) and day of month of an instant. */
export function monthAndDay(at: Date): { month: string; day: number } {
  const month = `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`
  return { month, day: at.getUTCDate() }
}

/**
 * How many samples of one question × engine are due by `day` of the month: the month's samples spread
 * evenly, ceil(S × day / days_in_month). Never more than S, reaches S on the last day, and is 1 on day 1
 * for any S ≥ 1 (so a newly enrolled client gets a first answer at once).
 */
export function dueSamples(samplesPerMonth: number, day: number, days: number): number {
  if (samplesPerMonth <= 0 || day <= 0) return 0
  const clampedDay = Math.min(day, days)
  return Math.min(samplesPerMonth, Math.ceil((samplesPerMonth * clampedDay) / days))
}

/** How many runs to queue now: due minus the live (not cancelled, not failed) runs of the pair this month. */
export function runsToQueue(due: number, live: number): number {
  return Math.max(0, due - live)
}
