import { assertVisible } from '../../domain/clients/client.js'
import {
  type ClientCooldownsState,
  clientCooldowns,
  type CooldownRecord,
  holdingCooldown,
} from '../../domain/monitoring/cooldowns/client-cooldowns.js'
import {
  type CooldownActivity,
  type CooldownReason,
  DEFAULT_COOLDOWN_MINUTES,
  MAX_COOLDOWN_MINUTES,
} from '../../domain/monitoring/cooldowns/reasons.js'
import { DomainError } from '../../domain/shared/errors.js'
import { writableClient } from '../aeo/capture-facts.js'
import { loadClient } from '../clients.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/** The client's cooldowns, folded from its stream (consistent with the last write, unlike the read model). */
export function loadClientCooldowns(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<ClientCooldownsState> {
  return loadState(deps.store, clientCooldowns, clientId)
}

/** How long: an end time, or minutes from now; neither: the reason's default (DEFAULT_COOLDOWN_MINUTES). */
export interface CooldownLength {
  readonly until?: string | Date | undefined
  readonly minutes?: number | undefined
  /** A person's call (set_client_cooldown) names the length: no silent default for them. */
  readonly requireLength?: boolean | undefined
}

/** The end a length names, from `now`; minutes outside 1 … MAX_COOLDOWN_MINUTES are refused. */
export function untilOf(reason: CooldownReason, length: CooldownLength, now: Date): string {
  if (length.until !== undefined && length.minutes !== undefined) {
    throw new DomainError('invalid_cooldown', 'Give until or minutes, not both', 'until and minutes both given')
  }
  if (length.requireLength && length.until === undefined && length.minutes === undefined) {
    throw new DomainError('invalid_cooldown', 'Give until or minutes', 'neither until nor minutes given')
  }
  if (length.until !== undefined) return typeof length.until === 'string' ? length.until : length.until.toISOString()
  const minutes = length.minutes ?? DEFAULT_COOLDOWN_MINUTES[reason]
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_COOLDOWN_MINUTES) {
    throw new DomainError('invalid_cooldown', `A cooldown lasts 1 to ${MAX_COOLDOWN_MINUTES} minutes`, `minutes ${minutes}`)
  }
  return new Date(now.getTime() + minutes * 60_000).toISOString()
}

/**
 * The client a cooldown is set on: visible to the caller and, for a caller, not deleted. The service's own
 * cooldowns (callerOrgId null: after a publish, after failed scans) follow what already happened to the
 * client, so a deleted client takes them too rather than failing the write that led to them.
 */
async function cooldownClient(deps: Pick<WriteDeps, 'store'>, clientId: number, callerOrgId: number | null) {
  if (callerOrgId !== null) return writableClient(deps.store, clientId, callerOrgId)
  const client = await loadClient(deps.store, clientId)
  assertVisible(client, null, clientId)
  return client
}

/**
 * set_client_cooldown, and the automatic ones (apply_site_edit's `publish`, the scan processor's
 * `scan_failures`): the client's cooldown for `reason` runs until the end given (set again: it moves). A
 * client of another organization answers not_found; a deleted one client_deleted (for a caller).
 * `callerOrgId` null: the service itself (any organization's client).
 */
export async function setCooldown(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; reason: CooldownReason; note?: string | null } & CooldownLength,
): Promise<{ cooldown: CooldownRecord; position: Position | null }> {
  const owner = await cooldownClient(deps, input.clientId, input.callerOrgId)
  const now = deps.clock()
  const outcome = await handleCommand(deps, {
    aggregate: clientCooldowns,
    id: owner.id,
    command: {
      type: 'SetClientCooldown',
      client_id: owner.id,
      reason: input.reason,
      until: untilOf(input.reason, input, now),
      note: input.note ?? null,
      now: now.toISOString(),
    },
    context,
    orgId: owner.orgId,
  })
  const cooldown = outcome.state.byReason[input.reason]
  if (!cooldown) throw new Error(`client_cooldowns-${owner.id}: set ${input.reason} left no record`)
  return { cooldown, position: outcome.position }
}

/**
 * clear_client_cooldown: ends the client's active cooldown for `reason` now (every active one when
 * omitted). Nothing active: nothing happens (`cleared` is empty). A deleted client's cooldowns may be cleared.
 */
export async function clearCooldown(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; reason?: CooldownReason | null },
): Promise<{ cleared: CooldownReason[]; position: Position | null }> {
  const client = await loadClient(deps.store, input.clientId)
  assertVisible(client, input.callerOrgId, input.clientId)
  const outcome = await handleCommand(deps, {
    aggregate: clientCooldowns,
    id: client.id,
    command: { type: 'ClearClientCooldown', client_id: client.id, reason: input.reason ?? null, now: deps.clock().toISOString() },
    context,
    orgId: client.orgId,
  })
  return { cleared: outcome.events.map((e) => e.data.reason), position: outcome.position }
}

/** The refusal of an activity a cooldown holds back: 409 client_in_cooldown, naming the reason and the end. */
export function inCooldownError(clientId: number, activity: CooldownActivity, cooldown: Pick<CooldownRecord, 'reason' | 'until'>) {
  return new DomainError(
    'client_in_cooldown',
    'The client is in cooldown',
    `client ${clientId} is in cooldown (reason ${cooldown.reason}) until ${cooldown.until}: no ${activity} before then`,
  )
}

/**
 * Refuses `activity` (409 client_in_cooldown) while an active cooldown of the client holds it back, read from
 * the client's stream by the system's clock (so a cooldown set a moment ago already counts). The write-side
 * check for commands; a read (get_… or a scheduler) can use activeCooldown of the read model instead.
 */
export async function assertNotInCooldown(
  deps: Pick<WriteDeps, 'store' | 'clock'>,
  clientId: number,
  activity: CooldownActivity,
): Promise<void> {
  const state = await loadClientCooldowns(deps, clientId)
  const holding = holdingCooldown(state, activity, deps.clock().toISOString())
  if (holding) throw inCooldownError(clientId, activity, holding)
}
