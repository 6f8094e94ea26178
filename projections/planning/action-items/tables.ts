import type { ColumnType } from 'kysely'
import type { ActionItemStatus, ActionItemTier } from '../../../domain/planning/action-items/events.js'

/** The action items read models as kysely sees them (DDL in migrations/read-models/planning-action-items.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per item; a deleted item keeps its row with deleted_at set (reads leave it out). */
export interface ActionItemsTable {
  id: number
  client_id: number
  org_id: number
  /** YYYY-MM, or null for an item without a month. */
  month: string | null
  action_type: string
  page_url: string
  description: string
  status: ActionItemStatus
  tier: ActionItemTier
  hours: number
  impact: number | null
  source_kind: 'insight' | 'aeo_item' | 'person' | 'carry_over'
  source_id: number | null
  source_by: string
  source_key: string | null
  /** The earlier month's item this one continues. */
  carried_from_item_id: number | null
  /** When the month closed with this item unfinished: the item that continues it next month. */
  carried_to_item_id: number | null
  job_id: number | null
  /** The site edit that carried it out (the last status change's). */
  site_edit_id: number | null
  /** The last status change's note. */
  note: string
  completed_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

/** One row per closed client-month. */
export interface ActionItemMonthsClosedTable {
  client_id: number
  month: string
  org_id: number
  next_month: string
  carried_count: number
  budget_hours: number | null
  done_hours: number
  closed_at: Timestamp
}

export interface ActionItemsReadModels {
  action_items: ActionItemsTable
  action_item_months_closed: ActionItemMonthsClosedTable
}
