import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { PushFailureCategory } from './categories.js'
import type { PushFailureEvent } from './events.js'
import { PUSH_ERROR_MAX_LENGTH, PUSH_NOTE_MAX_LENGTH } from './operations.js'

/**
 * A client's push failures: stream `push_failures-<client_id>`. A failure is recorded unresolved; it is
 * resolved with every other unresolved failure of its client and operation when the next attempt of that
 * operation succeeds (auto), or alone when a person resolves it. Resolved is final.
 */
export const clientPushFailuresStream = (clientId: number) => `push_failures-${clientId}`

export interface PushFailureRecord {
  readonly operation: string
  readonly resolved: boolean
}

export interface ClientPushFailuresState {
  readonly clientId: number
  readonly orgId: number | null
  /** Every failure of the client by id (resolved ones too, so a retried record is recognised). */
  readonly failures: Readonly<Record<number, PushFailureRecord>>
}

export type ClientPushFailuresCommand =
  | {
      type: 'RecordPushFailure'
      failure_id: number
      client_id: number
      operation: string
      category: PushFailureCategory
      error: string
      edit_id: number | null
      target: string | null
      http_status: number | null
      attempts: number | null
    }
  /** Resolve every unresolved failure of the client and operation (none: nothing happens). */
  | { type: 'ResolvePushFailures'; client_id: number; operation: string; note: string; auto: boolean }
  /** Resolve one failure (a person fixed it); already resolved: nothing happens; not the client's: not_found. */
  | { type: 'ResolvePushFailure'; client_id: number; failure_id: number; note: string }

const initialState = (): ClientPushFailuresState => ({ clientId: 0, orgId: null, failures: {} })

/** The ids of the client's unresolved failures of `operation`, oldest first. */
export function unresolvedOf(state: ClientPushFailuresState, operation: string): number[] {
  return Object.entries(state.failures)
    .filter(([, f]) => !f.resolved && f.operation === operation)
    .map(([id]) => Number(id))
    .sort((a, b) => a - b)
}

function evolve(state: ClientPushFailuresState, event: Evolving<PushFailureEvent>): ClientPushFailuresState {
  const base = { clientId: event.data.client_id, orgId: event.metadata?.org_id ?? state.orgId }
  switch (event.type) {
    case 'PushFailureRecorded': {
      const d = event.data
      return { ...base, failures: { ...state.failures, [d.failure_id]: { operation: d.operation, resolved: false } } }
    }
    case 'PushFailuresResolved': {
      const failures = { ...state.failures }
      for (const id of event.data.failure_ids) {
        const f = failures[id]
        if (f) failures[id] = { ...f, resolved: true }
      }
      return { ...base, failures }
    }
    default:
      return assertNever(event)
  }
}

const noteOf = (note: string) => note.trim().slice(0, PUSH_NOTE_MAX_LENGTH)

function decide(command: ClientPushFailuresCommand, state: ClientPushFailuresState): PushFailureEvent[] {
  switch (command.type) {
    case 'RecordPushFailure': {
      if (state.failures[command.failure_id]) return [] // the same record again (a retried append)
      const { type: _type, ...data } = command
      return [{ type: 'PushFailureRecorded', data: { ...data, error: data.error.slice(0, PUSH_ERROR_MAX_LENGTH) } }]
    }
    case 'ResolvePushFailures': {
      const ids = unresolvedOf(state, command.operation)
      if (ids.length === 0) return []
      const data = {
        client_id: command.client_id,
        operation: command.operation,
        failure_ids: ids,
        note: noteOf(command.note),
        auto: command.auto,
      }
      return [{ type: 'PushFailuresResolved', data }]
    }
    case 'ResolvePushFailure': {
      const failure = state.failures[command.failure_id]
      if (!failure) throw new NotFoundError('push failure', command.failure_id)
      if (failure.resolved) return []
      const data = {
        client_id: command.client_id,
        operation: failure.operation,
        failure_ids: [command.failure_id],
        note: noteOf(command.note),
        auto: false,
      }
      return [{ type: 'PushFailuresResolved', data }]
    }
    default:
      return assertNever(command)
  }
}

export const clientPushFailures: Aggregate<ClientPushFailuresState, ClientPushFailuresCommand, PushFailureEvent> = {
  streamOf: clientPushFailuresStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => state.orgId,
  entity: 'push failure',
}
