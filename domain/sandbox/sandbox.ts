import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { SandboxEvent } from './events.js'

/** The one sandbox stream. Appending its first event with expected revision no_stream is the creation claim. */
export const SANDBOX_STREAM = 'sandbox'

/** The system actor the sandbox seeder writes as (processors/sandbox-fiction.ts tells its writes apart by it). */
export const SANDBOX_ACTOR_ID = 'sandbox'

export interface SandboxState {
  readonly exists: boolean
  readonly orgId: number | null
  readonly keyId: number | null
  /** The clients of the current fixture (empty between a reset and the next seed). */
  readonly clientIds: readonly number[]
  /** Every client any fixture seeded, so a reset also retires a seed that was interrupted. */
  readonly everSeeded: readonly number[]
  readonly seeds: number
}

export type SandboxCommand =
  | { type: 'CreateSandbox'; org_id: number; key_id: number }
  | { type: 'RecordSeed'; client_ids: number[]; months: string[]; fixture_version: number }
  | { type: 'ResetSandbox'; also_retire: number[] }

export const sandbox: Aggregate<SandboxState, SandboxCommand, SandboxEvent, null> = {
  streamOf: () => SANDBOX_STREAM,
  initialState: () => ({ exists: false, orgId: null, keyId: null, clientIds: [], everSeeded: [], seeds: 0 }),

  evolve(state, event) {
    switch (event.type) {
      case 'SandboxCreated':
        return { ...state, exists: true, orgId: event.data.org_id, keyId: event.data.key_id }
      case 'SandboxSeeded':
        return {
          ...state,
          clientIds: event.data.client_ids,
          everSeeded: [...state.everSeeded, ...event.data.client_ids],
          seeds: state.seeds + 1,
        }
      case 'SandboxReset':
        return { ...state, clientIds: [] }
      default:
        return assertNever(event)
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateSandbox':
        if (state.exists) throw new DomainError('already_exists', 'The sandbox already exists', `organization ${state.orgId}`)
        return [{ type: 'SandboxCreated', data: { org_id: command.org_id, key_id: command.key_id } }]
      case 'RecordSeed':
        if (!state.exists || state.orgId === null) throw new DomainError('not_found', 'The sandbox does not exist')
        return [
          {
            type: 'SandboxSeeded',
            data: { org_id: state.orgId, client_ids: command.client_ids, months: command.months, fixture_version: command.fixture_version },
          },
        ]
      case 'ResetSandbox': {
        if (!state.exists || state.orgId === null) throw new DomainError('not_found', 'The sandbox does not exist')
        // Current clients, plus any client of the organization the caller found (an interrupted seed, or one a
        // platform key added): the fixture that follows starts from an empty organization.
        const retired = [...new Set([...state.clientIds, ...command.also_retire])].sort((a, b) => a - b)
        return [{ type: 'SandboxReset', data: { org_id: state.orgId, retired_client_ids: retired } }]
      }
      default:
        return assertNever(command)
    }
  },
}
