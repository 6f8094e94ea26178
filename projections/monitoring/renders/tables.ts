import type { ColumnType } from 'kysely'

/** The renders read model as kysely sees it (DDL in migrations/read-models/monitoring-renders.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface PageRendersTable {
  render_id: string
  scan_id: number
  client_id: number
  org_id: number
  page_url: string
  /** pageUrlKey(page_url): how get_latest_render compares URLs. */
  url_key: string
  page_id: number | null
  final_url: string | null
  status: number | null
  html_path: string | null
  html_bytes: number | null
  html_truncated: boolean
  screenshot_path: string | null
  screenshot_bytes: number | null
  screenshot_width: number | null
  screenshot_height: number | null
  content_hash: string | null
  snapshot_id: number | null
  requests_blocked: number
  blocked_urls: ColumnType<string[], string, string>
  error_code: string | null
  error_message: string | null
  rendered_at: Timestamp
}

export interface RendersReadModels {
  page_renders: PageRendersTable
}
