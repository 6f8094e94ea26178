import type { ColumnType } from 'kysely'

/** The reference docs read model as kysely sees it (DDL in migrations/read-models/content-reference-docs.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per reference document of an organization; deleted ones keep their row with deleted_at set. */
export interface ReferenceDocsTable {
  id: number
  org_id: number
  /** The client the document is for; null: the whole organization. */
  client_id: number | null
  /** brand_voice, style_guide, service_facts or other. */
  kind: string
  title: string
  body: string
  version: number
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

/** The reference-docs sub-area's read models as kysely sees them. */
export interface ReferenceDocsReadModels {
  reference_docs: ReferenceDocsTable
}
