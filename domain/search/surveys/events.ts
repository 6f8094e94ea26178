import { z } from 'zod'
import { Id } from '../../shared/values.js'

/*
 * Onboarding surveys: a client's surveys are one stream, `surveys-<client_id>`, because "at most one survey in
 * progress per client" is decided against all of them.
 */

/** An answer as recorded: text, a whole number, or several texts (a list or the options chosen). */
export const SurveyAnswerValue = z.union([z.string(), z.number().int(), z.array(z.string())])

/** create_client_survey: a new survey of the named questionnaire (domain/search/surveys/questions.ts). */
export const SurveyStarted = z.object({ survey_id: Id, client_id: Id, questionnaire: z.string().min(1).max(100) })

/** record_survey_answers: the answers that changed, by question id, already checked against their questions. */
export const SurveyAnswersRecorded = z.object({
  survey_id: Id,
  client_id: Id,
  answers: z.record(z.string().min(1).max(100), SurveyAnswerValue),
})

/** The last required question got its answer: the survey is completed (for good; answers can still be corrected). */
export const SurveyCompleted = z.object({ survey_id: Id, client_id: Id })

export const surveysEventSchemas = { SurveyStarted, SurveyAnswersRecorded, SurveyCompleted } as const

type Schemas = typeof surveysEventSchemas
export type SurveyEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type SurveyAnswer = z.infer<typeof SurveyAnswerValue>
