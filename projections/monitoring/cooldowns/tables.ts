import type { ColumnType } from 'kysely'
import type { CooldownReason } from '../../../domain/monitoring/cooldowns/reasons.js'

/** The cooldowns read models as kysely sees them (DDL in migrations/read-models/monitoring-cooldowns.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per client and reason, kept after the cooldown ends (active: not cleared and `until` ahead). */
export interface ClientCooldownsTable {
  client_id: number
  org_id: number
  reason: CooldownReason
  until: Timestamp
  note: string | null
  /** When it was last set. */
  set_at: Timestamp
  /** When clear_client_cooldown ended it; null: it runs (or ran) to `until`. */
  cleared_at: Timestamp | null
  updated_at: Timestamp
}

export interface CooldownsReadModels {
  client_cooldowns: ClientCooldownsTable
}
