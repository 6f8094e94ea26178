import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import type { PlatformEvent } from './events.js'

/** One stream for the whole installation: bootstrapping happens once, whichever process gets there first. */
export const PLATFORM_STREAM = 'platform-bootstrap'

export interface BootstrapState {
  readonly bootstrapped: boolean
}

export type BootstrapCommand = { type: 'Bootstrap'; key_id: number }

export const platformBootstrap: Aggregate<BootstrapState, BootstrapCommand, PlatformEvent, null> = {
  streamOf: () => PLATFORM_STREAM,
  initialState: () => ({ bootstrapped: false }),
  evolve: (_state, event) => {
    switch (event.type) {
      case 'PlatformBootstrapped':
        return { bootstrapped: true }
    }
  },
  decide(command, state) {
    if (state.bootstrapped) throw new DomainError('already_exists', 'The platform is already bootstrapped')
    return [{ type: 'PlatformBootstrapped', data: { key_id: command.key_id } }]
  },
}
