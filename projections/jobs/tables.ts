import type { ColumnType } from 'kysely'

/** The jobs read model as kysely sees it (DDL in migrations/read-models/jobs.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface JobProgressValue {
  done: number
  total: number
  percent: number
  message: string | null
}

export interface JobsTable {
  id: number
  org_id: number
  kind: string
  client_id: number | null
  group_id: number | null
  meter: boolean
  status: string
  attempts: number
  cancel_requested: boolean
  progress: Json<JobProgressValue | null> | null
  result: Json<Record<string, unknown> | null> | null
  error: string | null
  failure_reason: string | null
  revision: number
  created_at: Timestamp
  started_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

export interface JobReadModels {
  jobs: JobsTable
}
