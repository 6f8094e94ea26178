import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { CooldownEvent } from './events.js'
import { type CooldownActivity, type CooldownReason, CooldownReason as Reasons, holdsBack, MAX_COOLDOWN_DAYS } from './reasons.js'

/**
 * A client's cooldowns: stream `client_cooldowns-<client_id>`, one cooldown per reason. Setting a reason
 * again moves its end; clearing ends it now. Which cooldown is active is a comparison with `now`, which
 * comes in with the question (the domain has no clock).
 */
export const clientCooldownsStream = (clientId: number) => `client_cooldowns-${clientId}`

export interface CooldownRecord {
  readonly reason: CooldownReason
  /** ISO-8601: when the cooldown ends (or ended). */
  readonly until: string
  readonly note: string | null
  /** When it was last set (the event's time; null when folded from a just-decided event). */
  readonly setAt: string | null
  /** When clear_client_cooldown ended it; null while it runs to `until`. */
  readonly clearedAt: string | null
}

export interface ClientCooldownsState {
  readonly clientId: number
  readonly orgId: number | null
  readonly byReason: Readonly<Partial<Record<CooldownReason, CooldownRecord>>>
}

export type ClientCooldownsCommand =
  /** Start (or move) the cooldown for `reason` until `until`; `now` is the caller's clock, for validation. */
  | { type: 'SetClientCooldown'; client_id: number; reason: CooldownReason; until: string; note: string | null; now: string }
  /** End the active cooldown for `reason` (every active one when null); nothing active: nothing happens. */
  | { type: 'ClearClientCooldown'; client_id: number; reason: CooldownReason | null; now: string }

const initialState = (): ClientCooldownsState => ({ clientId: 0, orgId: null, byReason: {} })

/** Whether the record holds at `now`: not cleared, and its end still ahead. */
export function isActive(record: CooldownRecord, now: string): boolean {
  return record.clearedAt === null && Date.parse(record.until) > Date.parse(now)
}

/** The active cooldowns of the client at `now`, latest end first. */
export function activeRecords(state: ClientCooldownsState, now: string): CooldownRecord[] {
  return Reasons.options
    .map((r) => state.byReason[r])
    .filter((r): r is CooldownRecord => r !== undefined && isActive(r, now))
    .sort((a, b) => Date.parse(b.until) - Date.parse(a.until))
}

/** The active cooldown that holds `activity` back at `now` (the one ending last), or null. */
export function holdingCooldown(state: ClientCooldownsState, activity: CooldownActivity, now: string): CooldownRecord | null {
  return activeRecords(state, now).find((r) => holdsBack(r.reason, activity)) ?? null
}

/**
 * Checks a wanted `until` against `now`: after it, and at most MAX_COOLDOWN_DAYS ahead. Returns the
 * normalised ISO string (so the same instant always reads the same).
 */
export function validUntil(until: string, now: string): string {
  const end = Date.parse(until)
  if (Number.isNaN(end)) throw new DomainError('invalid_cooldown', 'The cooldown end is not a time', `until ${until}`)
  const start = Date.parse(now)
  if (end <= start) throw new DomainError('invalid_cooldown', 'A cooldown must end in the future', `until ${until} is not after ${now}`)
  if (end - start > MAX_COOLDOWN_DAYS * 86_400_000) {
    throw new DomainError('invalid_cooldown', `A cooldown ends at most ${MAX_COOLDOWN_DAYS} days ahead`, `until ${until}`)
  }
  return new Date(end).toISOString()
}

function evolve(state: ClientCooldownsState, event: Evolving<CooldownEvent>): ClientCooldownsState {
  const at = event.metadata?.occurred_at ?? null
  const base = { clientId: event.data.client_id, orgId: event.metadata?.org_id ?? state.orgId }
  switch (event.type) {
    case 'ClientCooldownSet': {
      const d = event.data
      const record: CooldownRecord = { reason: d.reason, until: d.until, note: d.note, setAt: at, clearedAt: null }
      return { ...base, byReason: { ...state.byReason, [d.reason]: record } }
    }
    case 'ClientCooldownCleared': {
      const previous = state.byReason[event.data.reason]
      if (!previous) return { ...state, ...base }
      // Decided without metadata: the record is ended all the same (its time is the event's once recorded).
      const record: CooldownRecord = { ...previous, clearedAt: at ?? previous.until }
      return { ...base, byReason: { ...state.byReason, [event.data.reason]: record } }
    }
    default:
      return assertNever(event)
  }
}

function decide(command: ClientCooldownsCommand, state: ClientCooldownsState): CooldownEvent[] {
  switch (command.type) {
    case 'SetClientCooldown': {
      const until = validUntil(command.until, command.now)
      const current = state.byReason[command.reason]
      // The same cooldown again (a retried request) changes nothing.
      if (current && isActive(current, command.now) && current.until === until && current.note === command.note) return []
      return [{ type: 'ClientCooldownSet', data: { client_id: command.client_id, reason: command.reason, until, note: command.note } }]
    }
    case 'ClearClientCooldown': {
      const ending = activeRecords(state, command.now).filter((r) => command.reason === null || r.reason === command.reason)
      return ending.map((r) => ({ type: 'ClientCooldownCleared', data: { client_id: command.client_id, reason: r.reason } }))
    }
    default:
      return assertNever(command)
  }
}

export const clientCooldowns: Aggregate<ClientCooldownsState, ClientCooldownsCommand, CooldownEvent> = {
  streamOf: clientCooldownsStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => state.orgId,
  entity: 'client',
}
