import type { ColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>

/** The architecture read models as kysely sees them (DDL in migrations/read-models/monitoring-architecture.ts). */
export interface ArchitectureReadModels {
  page_links: PageLinksTable
  page_link_sources: PageLinkSourcesTable
}

/** One internal link of a page, as its latest snapshot with a page state saw it (PageState.internal_links). */
export interface PageLinksTable {
  page_id: number
  /** The link's target, absolute, no fragment (as the crawler wrote it). */
  to_url: string
  org_id: number
  client_id: number
  /** The page's URL as fetched (PageState.url). */
  from_url: string
}

/** Per page, the snapshot its links come from: the URL fetched, where it ended and with what status. */
export interface PageLinkSourcesTable {
  page_id: number
  org_id: number
  client_id: number
  snapshot_id: number
  url: string
  final_url: string
  status: number
  links: number
  recorded_at: Timestamp
}
