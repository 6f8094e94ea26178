import type { ColumnType, Generated } from 'kysely'

/**
 * The durable public-schema tables that are not read models, as kysely sees them: processor work tables,
 * checkpoints, idempotency records, rate-limit windows and usage, service settings, files, sign-ins in flight.
 * The DDL is in the numbered migrations beside this file; a migration that changes one of these tables changes
 * its interface here in the same commit.
 *
 * It lives in migrations/ because every layer that touches the database (commands, projections, read-api,
 * processors, ops) may import it, and it imports nothing but kysely's types. The event store's own tables
 * (es_events, es_streams) are not here: only its adapter reads them, in SQL of its own.
 *
 * Types follow what node-postgres hands back with the parsers ops/postgres.ts installs: bigint as number,
 * timestamptz and date as Date, jsonb parsed. jsonb is written as JSON text, because node-postgres would
 * turn a JavaScript array into a PostgreSQL array literal.
 */
export interface WorkTables {
  service_settings: ServiceSettingsTable
  processor_checkpoints: ProcessorCheckpointsTable
  projection_failures: ProjectionFailuresTable
  idempotency_keys: IdempotencyKeysTable
  rate_limit_windows: RateLimitWindowsTable
  api_usage_daily: ApiUsageDailyTable
  files: FilesTable
  file_chunks: FileChunksTable
  job_work: JobWorkTable
  aeo_run_leases: AeoRunLeasesTable
  aeo_capture_records: AeoCaptureRecordsTable
  webhook_targets: WebhookTargetsTable
  webhook_events: WebhookEventsTable
  webhook_deliveries: WebhookDeliveriesTable
  oidc_login_states: OidcLoginStatesTable
  saml_login_requests: SamlLoginRequestsTable
  saml_seen_assertions: SamlSeenAssertionsTable
}

/** A timestamptz column: read as Date, written as Date or ISO text. */
type Timestamp = ColumnType<Date, Date | string, Date | string>
/** A timestamptz column with a default (now()). */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** A jsonb column: parsed on read, written as JSON text. */
type Json = ColumnType<unknown, string, string>
/** A column with a default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>

/** migrations/0003-service-settings.ts: operator settings every process must agree on, by key. */
export interface ServiceSettingsTable {
  key: string
  value: Json
  updated_at: DefaultTimestamp
}

/** migrations/0005-processor-checkpoints.ts: where each process manager has got to in the log. */
export interface ProcessorCheckpointsTable {
  name: string
  /** The opaque log position; null before the first event. */
  position: string | null
  updated_at: DefaultTimestamp
}

/** migrations/0019-projection-failures.ts: a projection group that keeps failing, one row while it fails. */
export interface ProjectionFailuresTable {
  group_name: string
  failing_since: Timestamp
  last_failed_at: Timestamp
  failures: number
  position: string | null
  error: string
}

/** migrations/0008-idempotency.ts: one row per (caller, Idempotency-Key). */
export interface IdempotencyKeysTable {
  caller: string
  key: string
  request_hash: string
  state: 'in_flight' | 'completed'
  owner: string
  locked_at: DefaultTimestamp
  expires_at: Timestamp
  status: number | null
  headers: ColumnType<unknown, string | null, string | null>
  body: string | null
  completed_at: Timestamp | null
}

/** migrations/0009-rate-limits-usage.ts: one row per bucket (key or address) and minute. */
export interface RateLimitWindowsTable {
  bucket: string
  window_minute: number
  count: number
}

/** migrations/0009-rate-limits-usage.ts: one row per UTC day, caller and method. */
export interface ApiUsageDailyTable {
  day: ColumnType<Date, Date | string, Date | string>
  actor_kind: string
  actor_id: string
  org_id: number | null
  method: string
  calls: number
}

/** migrations/0006-files.ts: the default blob store's files. */
export interface FilesTable {
  path: string
  org_id: number | null
  content_type: string
  bytes: number
  sha256: string
  created_at: DefaultTimestamp
  expires_at: Timestamp | null
}

/** migrations/0006-files.ts: a file's content, in order. */
export interface FileChunksTable {
  path: string
  seq: number
  data: Buffer
}

/** migrations/0010-jobs.ts: the job runner's queue; a row lives from JobRequested until the job finishes. */
export interface JobWorkTable {
  job_id: number
  org_id: number
  kind: string
  client_id: number | null
  payload: Json
  status: Defaulted<'queued' | 'running'>
  attempt: Defaulted<number>
  worker: string | null
  lease_expires_at: Timestamp | null
  queued_at: DefaultTimestamp
}

/** migrations/0004-aeo.ts: an agent's claim on a queued run while its AeoRunClaimed is being recorded. */
export interface AeoRunLeasesTable {
  run_id: number
  agent_key: string
  revision: number
  expires_at: Timestamp
}

/** migrations/0004-aeo.ts: each capture's raw engine record, prunable after the retention period. */
export interface AeoCaptureRecordsTable {
  capture_id: number
  org_id: number
  client_id: number
  record_json: string
  created_at: DefaultTimestamp
  pruned_at: Timestamp | null
}

/** migrations/0014-webhooks.ts: each webhook as the dispatcher knows it, in log order. */
export interface WebhookTargetsTable {
  webhook_id: number
  org_id: number
  url: string
  host: string
  /** Subscribed public event names; null: every event. */
  events: string[] | null
  active: boolean
  deleted: Defaulted<boolean>
  secret_sealed: string
  consecutive_failures: Defaulted<number>
  updated_at: DefaultTimestamp
}

/** migrations/0014-webhooks.ts: every webhook-visible event, numbered in log order (the feed's cursor). */
export interface WebhookEventsTable {
  number: Generated<number>
  event_id: string
  /** null: a platform event, visible to every organization. */
  org_id: number | null
  name: string
  client_id: number | null
  data: Json
  created_at: Timestamp
  in_feed: boolean
}

/** migrations/0014-webhooks.ts: the dispatcher's work table, one row per (webhook, event) or requested send. */
export interface WebhookDeliveriesTable {
  id: number
  webhook_id: number
  org_id: number
  event_number: number
  /** null: from the fan-out; otherwise what asked for it. */
  requested: 'ping' | 'redelivery' | null
  status: 'pending' | 'in_flight' | 'succeeded' | 'failed' | 'cancelled'
  attempts: Defaulted<number>
  next_attempt_at: Timestamp
  lease_until: Timestamp | null
  created_at: Timestamp
  finished_at: Timestamp | null
}

/** migrations/0020-sso.ts: OIDC sign-ins in flight, claimed once. */
export interface OidcLoginStatesTable {
  state_hash: string
  provider_id: number
  browser_hash: string
  nonce: string
  code_verifier_sealed: string
  return_to: string | null
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
}

/** migrations/0022-saml.ts: AuthnRequests the service issued, claimed once. */
export interface SamlLoginRequestsTable {
  request_id: string
  provider_id: number
  browser_hash: string
  return_to: string | null
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
}

/** migrations/0022-saml.ts: the assertion replay cache. */
export interface SamlSeenAssertionsTable {
  provider_id: number
  assertion_hash: string
  expires_at: Timestamp
}
