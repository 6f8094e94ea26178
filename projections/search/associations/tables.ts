import type { ColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One keyword ↔ page link (DDL in migrations/read-models/search-associations.ts). */
export interface KeywordPagesTable {
  keyword_id: number
  page_id: number
  client_id: number
  org_id: number
  /** The keyword's primary page: exactly one link of each linked keyword. */
  is_primary: boolean
  associated_at: Timestamp
  updated_at: Timestamp
}

/** The associations read models as kysely sees them. */
export interface AssociationsReadModels {
  keyword_pages: KeywordPagesTable
}
