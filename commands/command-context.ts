import { randomUUID } from 'node:crypto'
import type { Actor } from '../domain/shared/event.js'
import type { EventStore } from './event-store/port.js'
import type { IdAllocator } from './ids.js'

/** What every write needs from the outside world: the log, id sequences and the clock. */
export interface WriteDeps {
  readonly store: EventStore
  readonly ids: IdAllocator
  readonly clock: () => Date
}

/** Who acts and why, copied into every event's metadata. */
export interface CommandContext {
  readonly actor: Actor
  readonly requestId: string | null
  readonly correlationId: string
  readonly causationId: string | null
}

export const systemContext = (id: string): CommandContext => ({
  actor: { kind: 'system', id },
  requestId: null,
  correlationId: randomUUID(),
  causationId: null,
})
