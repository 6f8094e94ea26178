import type { ColumnType } from 'kysely'
import type { RankCheckErrorCode, RankFrequency, RankProviderName } from '../../../domain/search/rank-checks/events.js'
import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'

/** The rank-checks read models as kysely sees them (DDL in migrations/read-models/search-rank-checks.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export type RankCheckStatus = 'queued' | 'running' | 'completed' | 'failed'

/** A task of a check that could not be checked, as get_rank_check lists it. */
export interface FailedRankTask {
  keyword_id: number
  location_id: number | null
  device: RankDevice
  error_code: RankCheckErrorCode
  message: string
  tries: number
}

export interface RankCadencesTable {
  client_id: number
  org_id: number
  frequency: RankFrequency
  devices: RankDevice[]
  updated_at: Timestamp
}

export interface RankChecksTable {
  id: number
  client_id: number
  org_id: number
  /** YYYY-MM-DD (UTC): the day the ranks are recorded for. */
  date: string
  trigger: 'manual' | 'cadence'
  status: RankCheckStatus
  devices: RankDevice[]
  /** null until a worker first takes the check and fixes its plan. */
  keyword_count: number | null
  location_count: number | null
  tasks_total: number | null
  tasks_done: ColumnType<number, number | undefined, number>
  tasks_failed: ColumnType<number, number | undefined, number>
  provider_calls: ColumnType<number, number | undefined, number>
  retries: ColumnType<number, number | undefined, number>
  attempt: ColumnType<number, number | undefined, number>
  provider: RankProviderName | null
  worker: string | null
  lease_expires_at: Timestamp | null
  error_code: RankCheckErrorCode | null
  error_message: string | null
  failed_tasks: ColumnType<FailedRankTask[], string | undefined, string>
  queued_at: Timestamp
  started_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

export interface RankChecksReadModels {
  rank_cadences: RankCadencesTable
  rank_checks: RankChecksTable
}
