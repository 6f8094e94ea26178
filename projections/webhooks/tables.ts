import type { ColumnType } from 'kysely'

/** The webhook read models as kysely sees them (DDL in migrations/read-models/webhooks.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface WebhooksTable {
  id: number
  org_id: number
  url: string
  events: string[] | null
  description: string | null
  active: boolean
  disabled_reason: string | null
  secret_hint: string
  failure_count: ColumnType<number, number | undefined, number>
  last_attempt_at: Timestamp | null
  last_success_at: Timestamp | null
  last_failure_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

export interface WebhookDeliveryRecordsTable {
  id: number
  webhook_id: number
  org_id: number
  event_number: number
  event: string
  client_id: number | null
  requested: string | null
  /** retrying (failed, another attempt scheduled), succeeded, failed (no attempt left). */
  status: string
  attempts: number
  last_status_code: number | null
  last_error: string | null
  next_attempt_at: Timestamp | null
  first_attempt_at: Timestamp
  last_attempt_at: Timestamp
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: number
  attempt: number
  org_id: number
  succeeded: boolean
  status_code: number | null
  error: string | null
  duration_ms: number
  attempted_at: Timestamp
}

export interface WebhookReadModels {
  webhooks: WebhooksTable
  webhook_delivery_records: WebhookDeliveryRecordsTable
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable
}
