import type { ColumnType } from 'kysely'
import type { PushFailureCategory } from '../../../domain/publishing/push-failures/categories.js'

/** The push failures read models as kysely sees them (DDL in migrations/read-models/publishing-push-failures.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per push failure; unresolved while resolved_at is null. */
export interface PushFailuresTable {
  id: number
  org_id: number
  client_id: number
  operation: string
  category: PushFailureCategory
  error: string
  edit_id: number | null
  target: string | null
  http_status: number | null
  attempts: number | null
  occurred_at: Timestamp
  resolved_at: Timestamp | null
  resolved_note: string | null
  /** true: resolved because the next attempt succeeded; false: by a person; null: unresolved. */
  resolved_auto: boolean | null
}

/** The push failures sub-area's read models as kysely sees them. */
export type PushFailuresReadModels = {
  push_failures: PushFailuresTable
}
