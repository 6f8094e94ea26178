import type { ColumnType } from 'kysely'
import type { SurveyAnswer } from '../../../domain/search/surveys/events.js'

type Timestamp = ColumnType<Date, Date | string, Date | string>

export type SurveyStatus = 'in_progress' | 'completed'

/** One onboarding survey (DDL in migrations/read-models/search-surveys.ts). */
export interface SurveysTable {
  id: number
  client_id: number
  org_id: number
  questionnaire: string
  status: SurveyStatus
  /** The answers by question id, in their stored form; written as JSON text. */
  answers: ColumnType<Record<string, SurveyAnswer>, string, string>
  created_at: Timestamp
  updated_at: Timestamp
  completed_at: Timestamp | null
}

/** The surveys read models as kysely sees them. */
export interface SurveysReadModels {
  surveys: SurveysTable
}
