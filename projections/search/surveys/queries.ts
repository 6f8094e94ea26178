import type { Selectable } from 'kysely'
import type { SurveyAnswer } from '../../../domain/search/surveys/events.js'
import { questionsOf, type QuestionKind } from '../../../domain/search/surveys/questions.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { SurveysTable, SurveyStatus } from './tables.js'

export type SurveyRow = Selectable<SurveysTable>

/** A question of a survey with its answer (null while unanswered). */
export interface SurveyQuestionView {
  id: string
  prompt: string
  kind: QuestionKind
  required: boolean
  options: string[] | null
  answer: SurveyAnswer | null
}

/** A survey as the API shows it (get_survey, get_surveys_for_client). */
export interface SurveyView {
  survey_id: number
  client_id: number
  questionnaire: string
  status: SurveyStatus
  required_total: number
  required_answered: number
  questions: SurveyQuestionView[]
  created_at: string
  updated_at: string
  completed_at: string | null
}

export function surveyView(row: SurveyRow): SurveyView {
  const questions = questionsOf(row.questionnaire).map(
    (q): SurveyQuestionView => ({
      id: q.id,
      prompt: q.prompt,
      kind: q.kind,
      required: q.required,
      options: q.options ? [...q.options] : null,
      answer: row.answers[q.id] ?? null,
    }),
  )
  const required = questions.filter((q) => q.required)
  return {
    survey_id: row.id,
    client_id: row.client_id,
    questionnaire: row.questionnaire,
    status: row.status,
    required_total: required.length,
    required_answered: required.filter((q) => q.answer !== null).length,
    questions,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    completed_at: row.completed_at === null ? null : row.completed_at.toISOString(),
  }
}

/** The survey if the caller may see it; otherwise the same not-found as a missing one. */
export async function visibleSurvey(db: ReadDb, orgId: number | null, surveyId: number): Promise<SurveyRow> {
  let query = db.selectFrom('surveys').selectAll().where('id', '=', surveyId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('survey', surveyId)
  return row
}

/** The client's surveys, newest first. */
export async function surveysOfClient(db: ReadDb, clientId: number): Promise<SurveyView[]> {
  const rows = await db.selectFrom('surveys').selectAll().where('client_id', '=', clientId).orderBy('id', 'desc').execute()
  return rows.map(surveyView)
}
