import type { z } from 'zod'
import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { GscAuthType } from './credentials.js'
import { addDays, type DayRange, defaultCaptureRange } from './dates.js'
import type { GscCadence, GscCaptureTrigger, GscPropertyEvent } from './events.js'
import type { GscPropertyType } from './property.js'

/**
 * A client's Search Console connection, one stream per client (`gsc_property-<client_id>`): the property,
 * its sealed credentials, the cadence, and the captures queued for it. Queuing is decided here so a client
 * has at most one open capture (queued, running or waiting to retry) and the weekly cadence queues at most
 * one capture per week, whichever process asks.
 */
export const gscPropertyStream = (clientId: number) => `gsc_property-${clientId}`

/** A weekly capture is due when the default range's end is at least this many days after the last capture's end. */
export const CADENCE_DAYS = 7

export interface GscConnection {
  readonly property: string
  readonly propertyType: GscPropertyType
  readonly authType: GscAuthType
  readonly serviceAccountEmail: string | null
  readonly sealedCredentials: string | null
  readonly cadence: GscCadence
}

export interface GscPropertyState {
  readonly clientId: number
  /** null: never connected, or removed. */
  readonly connection: GscConnection | null
  /** The last capture queued (open or finished: whether it is open is in its own stream). */
  readonly lastCaptureId: number | null
  /** The latest end_date of any capture queued: what the cadence counts a week from. */
  readonly lastCapturedEnd: string | null
}

export type GscPropertyCommand =
  | {
      type: 'SetProperty'
      client_id: number
      property: string
      property_type: GscPropertyType
      auth_type: GscAuthType
      service_account_email: string | null
      sealed_credentials: string | null
      cadence: GscCadence
    }
  | { type: 'RemoveProperty'; client_id: number }
  | {
      /**
       * Queue a capture of `range` (manual) or of the default range when the cadence says one is due
       * (cadence). `last_capture_open`: whether the capture named by the state's lastCaptureId is still
       * open, as its own stream says (read by the caller for this state). An open capture is answered as it
       * is: nothing is queued.
       */
      type: 'QueueCapture'
      client_id: number
      capture_id: number
      range: DayRange
      trigger: z.infer<typeof GscCaptureTrigger>
      last_capture_open: boolean
      today: string
    }

const initialState = (): GscPropertyState => ({ clientId: 0, connection: null, lastCaptureId: null, lastCapturedEnd: null })

function evolve(state: GscPropertyState, event: GscPropertyEvent): GscPropertyState {
  switch (event.type) {
    case 'GscPropertySet': {
      const d = event.data
      return {
        ...state,
        clientId: d.client_id,
        connection: {
          property: d.property,
          propertyType: d.property_type,
          authType: d.auth_type,
          serviceAccountEmail: d.service_account_email,
          sealedCredentials: d.sealed_credentials,
          cadence: d.cadence,
        },
      }
    }
    case 'GscPropertyRemoved':
      return { ...state, connection: null }
    case 'GscCaptureQueued': {
      const d = event.data
      const lastEnd = state.lastCapturedEnd === null || d.end_date > state.lastCapturedEnd ? d.end_date : state.lastCapturedEnd
      return { ...state, lastCaptureId: d.capture_id, lastCapturedEnd: lastEnd }
    }
    default:
      return assertNever(event)
  }
}

/** Whether the weekly cadence wants a capture on `today` (a week of new complete days since the last capture's end). */
export function cadenceDue(state: GscPropertyState, today: string): boolean {
  if (state.connection?.cadence !== 'weekly') return false
  if (state.lastCapturedEnd === null) return true
  return defaultCaptureRange(today).end >= addDays(state.lastCapturedEnd, CADENCE_DAYS)
}

function decide(command: GscPropertyCommand, state: GscPropertyState): GscPropertyEvent[] {
  switch (command.type) {
    case 'SetProperty': {
      const { type: _type, ...data } = command
      return [{ type: 'GscPropertySet', data }]
    }
    case 'RemoveProperty':
      // Removing again changes nothing (a retried request).
      return state.connection === null ? [] : [{ type: 'GscPropertyRemoved', data: { client_id: command.client_id } }]
    case 'QueueCapture': {
      const connection = state.connection
      if (connection === null) {
        if (command.trigger === 'cadence') return []
        throw new DomainError('gsc_not_connected', 'The client has no Search Console property', `client ${command.client_id}`)
      }
      if (state.lastCaptureId !== null && command.last_capture_open) return []
      if (command.trigger === 'cadence' && !cadenceDue(state, command.today)) return []
      return [
        {
          type: 'GscCaptureQueued',
          data: {
            client_id: command.client_id,
            capture_id: command.capture_id,
            property: connection.property,
            start_date: command.range.start,
            end_date: command.range.end,
            trigger: command.trigger,
          },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const gscProperty: Aggregate<GscPropertyState, GscPropertyCommand, GscPropertyEvent> = {
  streamOf: gscPropertyStream,
  initialState,
  evolve,
  decide,
}
