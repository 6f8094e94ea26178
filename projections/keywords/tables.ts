import type { ColumnType } from 'kysely'

/** The keywords read model as kysely sees it (DDL in migrations/read-models/keywords.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export type KeywordStatus = 'active' | 'deleted'

export interface KeywordsTable {
  id: number
  client_id: number
  org_id: number
  keyword: string
  keyword_key: string
  source: string
  service: string
  location: string
  status: KeywordStatus
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

export interface KeywordReadModels {
  keywords: KeywordsTable
}
