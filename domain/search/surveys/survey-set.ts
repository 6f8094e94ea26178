import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import { checkedAnswer, sameAnswer } from './answers.js'
import type { SurveyAnswer, SurveyEvent } from './events.js'
import { questionsOf } from './questions.js'

/**
 * A client's onboarding surveys: stream `surveys-<client_id>`. At most one is in progress at a time, so
 * starting a survey while one is open answers that one (a double click or a retry never opens two). A survey
 * is in progress until every required question has an answer, then completed for good; answers can be
 * replaced (a correction) but not removed.
 */
export const surveySetStream = (clientId: number) => `surveys-${clientId}`

/** The most surveys one client may have: bounds this stream's state (a survey a year is the expected use). */
export const MAX_SURVEYS_PER_CLIENT = 100

export interface SurveyRecord {
  readonly id: number
  readonly questionnaire: string
  readonly answers: Readonly<Record<string, SurveyAnswer>>
  readonly completed: boolean
}

export interface SurveySetState {
  readonly clientId: number
  /** Oldest first. */
  readonly surveys: readonly SurveyRecord[]
}

export type SurveySetCommand =
  /** `survey_id`: the id a new survey gets (allocated by the caller; unused when one is in progress). */
  | { type: 'StartSurvey'; client_id: number; survey_id: number; questionnaire: string }
  /** `answers`: raw answers by question id, as the caller sent them; checked here. */
  | { type: 'RecordAnswers'; client_id: number; survey_id: number; answers: Readonly<Record<string, unknown>> }

const initialState = (): SurveySetState => ({ clientId: 0, surveys: [] })

export function findSurvey(state: SurveySetState, surveyId: number): SurveyRecord | undefined {
  return state.surveys.find((s) => s.id === surveyId)
}

/** The survey in progress, if any (there is at most one). */
export function openSurvey(state: SurveySetState): SurveyRecord | undefined {
  return state.surveys.find((s) => !s.completed)
}

/** Whether every required question of the survey's questionnaire has an answer in `answers`. */
export function allRequiredAnswered(questionnaire: string, answers: Readonly<Record<string, SurveyAnswer>>): boolean {
  return questionsOf(questionnaire).every((q) => !q.required || answers[q.id] !== undefined)
}

function patch(state: SurveySetState, id: number, change: (s: SurveyRecord) => SurveyRecord): SurveySetState {
  return { ...state, surveys: state.surveys.map((s) => (s.id === id ? change(s) : s)) }
}

function evolve(state: SurveySetState, event: SurveyEvent): SurveySetState {
  switch (event.type) {
    case 'SurveyStarted': {
      const d = event.data
      const survey: SurveyRecord = { id: d.survey_id, questionnaire: d.questionnaire, answers: {}, completed: false }
      return { clientId: d.client_id, surveys: [...state.surveys, survey] }
    }
    case 'SurveyAnswersRecorded':
      return patch(state, event.data.survey_id, (s) => ({ ...s, answers: { ...s.answers, ...event.data.answers } }))
    case 'SurveyCompleted':
      return patch(state, event.data.survey_id, (s) => ({ ...s, completed: true }))
    default:
      return assertNever(event)
  }
}

function start(command: Extract<SurveySetCommand, { type: 'StartSurvey' }>, state: SurveySetState): SurveyEvent[] {
  if (openSurvey(state)) return []
  if (questionsOf(command.questionnaire).length === 0) {
    throw new DomainError('validation_failed', 'Unknown questionnaire', `questionnaire "${command.questionnaire}"`)
  }
  if (state.surveys.length >= MAX_SURVEYS_PER_CLIENT) {
    throw new DomainError(
      'survey_limit',
      'The client has the most surveys allowed',
      `${state.surveys.length} surveys; the cap is ${MAX_SURVEYS_PER_CLIENT}`,
    )
  }
  return [
    { type: 'SurveyStarted', data: { survey_id: command.survey_id, client_id: command.client_id, questionnaire: command.questionnaire } },
  ]
}

function record(command: Extract<SurveySetCommand, { type: 'RecordAnswers' }>, state: SurveySetState): SurveyEvent[] {
  const survey = findSurvey(state, command.survey_id)
  if (!survey) throw new NotFoundError('survey', command.survey_id)
  const questions = new Map(questionsOf(survey.questionnaire).map((q) => [q.id, q]))
  const changed: Record<string, SurveyAnswer> = {}
  // Every answer is checked before anything is recorded: one bad answer refuses the whole call.
  for (const [id, raw] of Object.entries(command.answers)) {
    const question = questions.get(id)
    if (!question) {
      throw new DomainError('survey_answer_invalid', 'A survey answer does not fit its question', `answers.${id}: no such question`)
    }
    const answer = checkedAnswer(question, raw)
    if (!sameAnswer(survey.answers[id], answer)) changed[id] = answer
  }
  const events: SurveyEvent[] = []
  const ids = { survey_id: survey.id, client_id: command.client_id }
  if (Object.keys(changed).length > 0) events.push({ type: 'SurveyAnswersRecorded', data: { ...ids, answers: changed } })
  if (!survey.completed && allRequiredAnswered(survey.questionnaire, { ...survey.answers, ...changed })) {
    events.push({ type: 'SurveyCompleted', data: ids })
  }
  return events
}

function decide(command: SurveySetCommand, state: SurveySetState): SurveyEvent[] {
  switch (command.type) {
    case 'StartSurvey':
      return start(command, state)
    case 'RecordAnswers':
      return record(command, state)
    default:
      return assertNever(command)
  }
}

export const surveySet: Aggregate<SurveySetState, SurveySetCommand, SurveyEvent> = {
  streamOf: surveySetStream,
  initialState,
  evolve,
  decide,
}
