import type { ColumnType } from 'kysely'

/** The hour budgets read models as kysely sees them (DDL in migrations/read-models/planning-cycles.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per client and starting month of a budget setting; it holds until the client's next setting. */
export interface HourBudgetSettingsTable {
  client_id: number
  /** YYYY-MM: the first month the setting holds. */
  from_month: string
  org_id: number
  /** Hours a month; null: no budget from this month on. */
  hours: number | null
  set_at: Timestamp
}

export interface CyclesReadModels {
  hour_budget_settings: HourBudgetSettingsTable
}
