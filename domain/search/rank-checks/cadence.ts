import type { Aggregate } from '../../shared/aggregate.js'
import type { RankDevice } from '../ranks/rank-row.js'
import type { RankCadenceEvent, RankFrequency } from './events.js'

/** A client's rank-check cadence: stream `rank_cadence-<client_id>`. */
export const rankCadenceStream = (clientId: number) => `rank_cadence-${clientId}`

/** Both devices, desktop first: what a cadence checks unless told otherwise, and what a manual check uses without one. */
export const DEFAULT_RANK_DEVICES: readonly RankDevice[] = ['desktop', 'mobile']

export interface RankCadenceState {
  readonly exists: boolean
  readonly clientId: number
  readonly frequency: RankFrequency
  readonly devices: readonly RankDevice[]
}

export type RankCadenceCommand = {
  type: 'SetRankCadence'
  client_id: number
  frequency: RankFrequency
  devices: readonly RankDevice[]
}

const initialState = (): RankCadenceState => ({ exists: false, clientId: 0, frequency: 'off', devices: DEFAULT_RANK_DEVICES })

/** Devices once each, desktop before mobile (so the same set always reads the same). */
export function uniqueDevices(devices: readonly RankDevice[]): RankDevice[] {
  return DEFAULT_RANK_DEVICES.filter((d) => devices.includes(d))
}

function evolve(_state: RankCadenceState, event: RankCadenceEvent): RankCadenceState {
  const d = event.data
  return { exists: true, clientId: d.client_id, frequency: d.frequency, devices: d.devices }
}

function decide(command: RankCadenceCommand, state: RankCadenceState): RankCadenceEvent[] {
  const devices = uniqueDevices(command.devices)
  const unchanged =
    state.exists &&
    state.frequency === command.frequency &&
    state.devices.length === devices.length &&
    state.devices.every((d, i) => d === devices[i])
  if (unchanged) return [] // the same cadence again (a retried request)
  return [{ type: 'RankCadenceSet', data: { client_id: command.client_id, frequency: command.frequency, devices } }]
}

export const rankCadence: Aggregate<RankCadenceState, RankCadenceCommand, RankCadenceEvent> = {
  streamOf: rankCadenceStream,
  initialState,
  evolve,
  decide,
}

/** Whole days from `from` to `to` (both YYYY-MM-DD, UTC). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/**
 * Whether a cadence wants a check queued on `today`, given the date of the client's last check (of any
 * trigger: a manual check today also serves a daily cadence today). Daily: once per UTC day; weekly: once
 * seven days have passed since the last check; off: never.
 */
export function cadenceIsDue(frequency: RankFrequency, lastCheckDate: string | null, today: string): boolean {
  if (frequency === 'off') return false
  if (lastCheckDate === null) return true
  return daysBetween(lastCheckDate, today) >= (frequency === 'daily' ? 1 : 7)
}

/** The UTC day of an instant, YYYY-MM-DD: a check's date. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}
