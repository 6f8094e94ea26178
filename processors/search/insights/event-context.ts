import type { CommandContext } from '../../../commands/command-handler.js'
import type { DecodedEvent } from '../../../commands/event-store/decode.js'
import { DomainError } from '../../../domain/shared/errors.js'

/** A command caused by an event: its correlation carries over, so the log shows why an insight was raised. */
export function causedBy(actorId: string, event: DecodedEvent): CommandContext {
  return {
    actor: { kind: 'system', id: actorId },
    requestId: null,
    correlationId: event.metadata.correlation_id ?? event.id,
    causationId: event.id,
  }
}

/**
 * Whether a failure is the record's answer rather than the system's: a client deleted since, a record
 * gone. Such an event has nothing left to do; retrying it would loop forever. Anything else (the database,
 * the read models lagging) is thrown, and the subscription handles the event again.
 */
export const isSettledRefusal = (error: unknown): error is DomainError => error instanceof DomainError
