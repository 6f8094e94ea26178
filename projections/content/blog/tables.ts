import type { ColumnType } from 'kysely'

/** The blog read models as kysely sees them (DDL in migrations/read-models/content-blog.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per blog topic of a client. */
export interface BlogTopicsTable {
  id: number
  org_id: number
  client_id: number
  title: string
  /** '' when none. */
  target_keyword: string
  /** keyword_gap, gsc_query, aeo_question or manual. */
  source: string
  source_ref: string
  notes: string
  /** proposed, approved, drafted, scheduled, published or rejected. */
  status: string
  /** The local date the post is planned for, YYYY-MM-DD; null when not planned. */
  planned_date: string | null
  /** Why the last status move was made, as given ('' when none). */
  status_reason: string
  deleted: boolean
  created_at: Timestamp
  updated_at: Timestamp
  status_changed_at: Timestamp
  /** The last move to approved / published / rejected; null when never. */
  approved_at: Timestamp | null
  published_at: Timestamp | null
  rejected_at: Timestamp | null
}

/** One row per client with a publishing schedule. */
export interface BlogSchedulesTable {
  client_id: number
  org_id: number
  posts_per_week: number
  /** The days that may carry a post, comma-separated in week order (mon,wed,fri). */
  days: string
  /** HH:MM in timezone. */
  time_of_day: string
  timezone: string
  active: boolean
  start_date: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** The blog sub-area's read models as kysely sees them. */
export interface BlogReadModels {
  blog_topics: BlogTopicsTable
  blog_schedules: BlogSchedulesTable
}
