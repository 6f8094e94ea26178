import type { ColumnType } from 'kysely'

/** The ad copy read models as kysely sees them (DDL in migrations/read-models/ad-copy.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface AdCopySetsTable {
  id: number
  client_id: number
  org_id: number
  job_id: number | null
  status: 'proposed' | 'approved' | 'rejected'
  ad_group_count: number
  approved_by: string | null
  approved_at: Timestamp | null
  rejected_by: string | null
  rejected_at: Timestamp | null
  rejection_reason: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AdCopyAdGroupsTable {
  id: number
  set_id: number
  client_id: number
  org_id: number
  /** 1-based order within the set (the order the job wrote them: services, then areas). */
  position: number
  name: string
  service: string
  area: string
  headlines: Json<string[]>
  descriptions: Json<string[]>
  keywords: Json<string[]>
  final_url: string
  writer: string
}

export interface AdCopyReadModels {
  ad_copy_sets: AdCopySetsTable
  ad_copy_ad_groups: AdCopyAdGroupsTable
}
