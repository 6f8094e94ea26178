import { assertVisible } from '../../domain/clients/client.js'
import type { PushFailureCategory } from '../../domain/publishing/push-failures/categories.js'
import { clientPushFailures } from '../../domain/publishing/push-failures/client-push-failures.js'
import { AUTO_RESOLVE_NOTE, PUSH_OPERATION_PATTERN } from '../../domain/publishing/push-failures/operations.js'
import { DomainError } from '../../domain/shared/errors.js'
import { loadClient } from '../clients.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/**
 * The push failure commands: what the WordPress publisher, the blog pipeline and the connection check call
 * when the client's site did not take a push (recordPushFailure), and when the next attempt of the same
 * operation succeeded (resolvePushFailures with auto true).
 */

export interface PushFailureInput {
  /** The client's organization (the pusher acts for it): another organization's client answers not_found. */
  readonly orgId: number
  readonly clientId: number
  /** KNOWN_PUSH_OPERATIONS, or any name matching PUSH_OPERATION_PATTERN. */
  readonly operation: string
  readonly category: PushFailureCategory
  /** What went wrong, in words: cut to PUSH_ERROR_MAX_LENGTH characters. Never a password or a token. */
  readonly error: string
  readonly editId?: number | null | undefined
  /** The URL, or `wp:<type>/<id>`, pushed to. */
  readonly target?: string | null | undefined
  readonly httpStatus?: number | null | undefined
  readonly attempts?: number | null | undefined
}

function assertOperation(operation: string): void {
  if (!PUSH_OPERATION_PATTERN.test(operation)) {
    throw new DomainError(
      'validation_failed',
      'The request parameters are invalid',
      `operation "${operation.slice(0, 80)}" is not a lower-case name (a-z, 0-9, _)`,
    )
  }
}

/** The client a failure belongs to: it exists and is of `orgId` (null: any); a deleted client's failures still count. */
async function ownerOf(deps: Pick<WriteDeps, 'store'>, clientId: number, orgId: number | null) {
  const client = await loadClient(deps.store, clientId)
  assertVisible(client, orgId, clientId)
  return client
}

/** Records a push the client's site did not take. Returns the new failure's id. */
export async function recordPushFailure(
  deps: WriteDeps,
  context: CommandContext,
  input: PushFailureInput,
): Promise<{ failureId: number; position: Position | null }> {
  assertOperation(input.operation)
  const client = await ownerOf(deps, input.clientId, input.orgId)
  const failureId = await deps.ids.next('push_failure')
  const outcome = await handleCommand(deps, {
    aggregate: clientPushFailures,
    id: client.id,
    command: {
      type: 'RecordPushFailure',
      failure_id: failureId,
      client_id: client.id,
      operation: input.operation,
      category: input.category,
      error: input.error,
      edit_id: input.editId ?? null,
      target: input.target ? input.target.slice(0, 2000) : null,
      http_status: input.httpStatus ?? null,
      attempts: input.attempts ?? null,
    },
    context,
    orgId: client.orgId,
  })
  return { failureId, position: outcome.position }
}

/**
 * Resolves every unresolved failure of the client and operation, as one event: `auto` when the next attempt
 * succeeded (the pusher calls this after every success; nothing unresolved: no event, 0), false when a person
 * resolved them. `callerOrgId` (absent or null: the service itself) limits it to that organization's clients.
 */
export async function resolvePushFailures(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; operation: string; note?: string | undefined; auto: boolean; callerOrgId?: number | null | undefined },
): Promise<{ resolved: number; failureIds: readonly number[]; position: Position | null }> {
  assertOperation(input.operation)
  const client = await ownerOf(deps, input.clientId, input.callerOrgId ?? null)
  const outcome = await handleCommand(deps, {
    aggregate: clientPushFailures,
    id: client.id,
    command: {
      type: 'ResolvePushFailures',
      client_id: client.id,
      operation: input.operation,
      note: input.note ?? AUTO_RESOLVE_NOTE,
      auto: input.auto,
    },
    context,
    orgId: client.orgId,
  })
  const failureIds = outcome.events.flatMap((e) => (e.type === 'PushFailuresResolved' ? e.data.failure_ids : []))
  return { resolved: failureIds.length, failureIds, position: outcome.position }
}

/** Resolves one failure (a person fixed its cause). Already resolved: nothing happens (`resolved` false). */
export async function resolvePushFailure(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; failureId: number; note: string; callerOrgId?: number | null | undefined },
): Promise<{ resolved: boolean; position: Position | null }> {
  const client = await ownerOf(deps, input.clientId, input.callerOrgId ?? null)
  const outcome = await handleCommand(deps, {
    aggregate: clientPushFailures,
    id: client.id,
    command: { type: 'ResolvePushFailure', client_id: client.id, failure_id: input.failureId, note: input.note },
    context,
    orgId: client.orgId,
  })
  return { resolved: outcome.events.length > 0, position: outcome.position }
}
