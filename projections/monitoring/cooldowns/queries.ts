import type { Selectable } from 'kysely'
import { COOLDOWN_HOLDS, type CooldownActivity, type CooldownReason, reasonsHolding } from '../../../domain/monitoring/cooldowns/reasons.js'
import type { ReadDb } from '../../tables.js'
import type { ClientCooldownsTable } from './tables.js'

type CooldownRow = Selectable<ClientCooldownsTable>

/** A cooldown as the API shows it (get_active_cooldowns, get_client_cooldown, set_client_cooldown). */
export interface CooldownView {
  client_id: number
  reason: CooldownReason
  /** ISO-8601: when it ends (or ended). */
  until: string
  note: string | null
  /** Whether it holds at the time of the answer: not cleared and `until` still ahead. */
  active: boolean
  /** What it holds back while active (the reason's rule). */
  holds_back: CooldownActivity[]
  set_at: string
  cleared_at: string | null
}

export function cooldownView(row: CooldownRow, now: Date): CooldownView {
  return {
    client_id: row.client_id,
    reason: row.reason,
    until: row.until.toISOString(),
    note: row.note,
    active: row.cleared_at === null && row.until.getTime() > now.getTime(),
    holds_back: [...COOLDOWN_HOLDS[row.reason]],
    set_at: row.set_at.toISOString(),
    cleared_at: row.cleared_at === null ? null : row.cleared_at.toISOString(),
  }
}

/** Rows active at `now`: not cleared, ending after it. */
function active(read: ReadDb, now: Date) {
  return read.selectFrom('client_cooldowns').selectAll().where('cleared_at', 'is', null).where('until', '>', now)
}

/**
 * The active cooldown of the client that holds `activity` back at `now` (the one ending last), or null: what a
 * scan start or a scheduler asks before going on (`'scan'`), and what publishing asks (`'publish'`).
 */
export async function activeCooldown(read: ReadDb, clientId: number, activity: CooldownActivity, now: Date): Promise<CooldownView | null> {
  const row = await active(read, now)
    .where('client_id', '=', clientId)
    .where('reason', 'in', reasonsHolding(activity))
    .orderBy('until', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? cooldownView(row, now) : null
}

/** get_active_cooldowns: every active cooldown of the organization's clients (null: of every organization), soonest end first. */
export async function activeCooldowns(read: ReadDb, orgId: number | null, now: Date): Promise<CooldownView[]> {
  let query = active(read, now)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const rows = await query.orderBy('until', 'asc').orderBy('client_id', 'asc').orderBy('reason', 'asc').execute()
  return rows.map((row) => cooldownView(row, now))
}

/**
 * get_client_cooldown: the client's active cooldown for `reason` (any reason when null: the one ending last);
 * with none active, the one set last (expired or cleared, `active` false), so a caller sees what just ended;
 * null when the client never had one.
 */
export async function clientCooldown(
  read: ReadDb,
  clientId: number,
  reason: CooldownReason | null,
  now: Date,
): Promise<CooldownView | null> {
  let query = read.selectFrom('client_cooldowns').selectAll().where('client_id', '=', clientId)
  if (reason !== null) query = query.where('reason', '=', reason)
  const rows = await query.execute()
  const views = rows.map((row) => cooldownView(row, now))
  const running = views.filter((v) => v.active).sort((a, b) => b.until.localeCompare(a.until))
  if (running[0]) return running[0]
  return views.sort((a, b) => b.set_at.localeCompare(a.set_at) || a.reason.localeCompare(b.reason))[0] ?? null
}

/** is_client_in_cooldown: whether the client has an active cooldown (for `reason`; any when null) at `now`. */
export async function isInCooldown(read: ReadDb, clientId: number, reason: CooldownReason | null, now: Date): Promise<boolean> {
  let query = active(read, now).where('client_id', '=', clientId)
  if (reason !== null) query = query.where('reason', '=', reason)
  return (await query.limit(1).executeTakeFirst()) !== undefined
}
