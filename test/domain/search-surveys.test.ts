/**
 * Onboarding surveys, pure: one survey in progress per client, answers checked against their questions and
 * stored in a clean form, only changed answers recorded, completion when the last required answer comes in
 * (and never undone), and the refusals naming the answer at fault.
 */
import t from 'tap'
import { checkedAnswer } from '../../domain/search/surveys/answers.js'
import type { SurveyEvent } from '../../domain/search/surveys/events.js'
import {
  CURRENT_QUESTIONNAIRE,
  LIST_MAX_ITEMS,
  ONBOARDING_V1,
  questionsOf,
  TEXT_MAX_LENGTH,
} from '../../domain/search/surveys/questions.js'
import { MAX_SURVEYS_PER_CLIENT, surveySet, type SurveySetCommand } from '../../domain/search/surveys/survey-set.js'
import { spec } from './given-when-then.js'

const given = spec(surveySet)
const CLIENT = 7
const started = (survey_id: number): SurveyEvent => ({
  type: 'SurveyStarted',
  data: { survey_id, client_id: CLIENT, questionnaire: ONBOARDING_V1 },
})
const recorded = (survey_id: number, answers: Record<string, string | number | string[]>): SurveyEvent => ({
  type: 'SurveyAnswersRecorded',
  data: { survey_id, client_id: CLIENT, answers },
})
const completed = (survey_id: number): SurveyEvent => ({ type: 'SurveyCompleted', data: { survey_id, client_id: CLIENT } })
const start = (survey_id: number): SurveySetCommand => ({ type: 'StartSurvey', client_id: CLIENT, survey_id, questionnaire: ONBOARDING_V1 })
const answer = (survey_id: number, answers: Record<string, unknown>): SurveySetCommand => ({
  type: 'RecordAnswers',
  client_id: CLIENT,
  survey_id,
  answers,
})

/** Every required answer but the last one, as stored. */
const ALMOST = {
  business_summary: 'Plumbing in Austin',
  services: ['Drain cleaning'],
  service_area: ['Austin, TX'],
  ideal_customer: 'Homeowners with a clog',
  differentiators: ['Same-day visits'],
  brand_voice: 'friendly',
}

t.test('the questionnaire: unique ids, choices with options, others without', async (t) => {
  const questions = questionsOf(CURRENT_QUESTIONNAIRE)
  t.ok(questions.length >= 10, 'services, service area, customer, differentiators, competitors, voice, goals and more')
  t.equal(new Set(questions.map((q) => q.id)).size, questions.length, 'ids are unique')
  for (const q of questions) {
    const choice = q.kind === 'choice' || q.kind === 'multi_choice'
    t.equal(choice, (q.options?.length ?? 0) > 0, `${q.id}: options exactly for choice kinds`)
  }
  t.same(
    questions.filter((q) => q.required).map((q) => q.id),
    [...Object.keys(ALMOST).slice(0, 5), 'brand_voice', 'goals'],
  )
  t.same(questionsOf('no-such-questionnaire'), [])
})

t.test('one survey in progress per client', async (t) => {
  given()
    .when(start(1))
    .then(t, [started(1)])
  given(started(1)).when(start(2)).thenNothingHappens(t)
  given(started(1), recorded(1, { ...ALMOST, goals: ['more_calls'] }), completed(1))
    .when(start(2))
    .then(t, [started(2)])
  given().when({ type: 'StartSurvey', client_id: CLIENT, survey_id: 1, questionnaire: 'onboarding-v0' }).thenThrows(t, 'validation_failed')
  const full = Array.from({ length: MAX_SURVEYS_PER_CLIENT }, (_, i) => [started(i + 1), completed(i + 1)]).flat()
  given(...full)
    .when(start(1000))
    .thenThrows(t, 'survey_limit')
})

t.test('answers: partial, cleaned, only changes recorded, completion once', async (t) => {
  given(started(1))
    .when(answer(1, { business_summary: '  Plumbing   in Austin ', services: ['Drain cleaning', ' drain  CLEANING', ''] }))
    .then(t, [recorded(1, { business_summary: 'Plumbing in Austin', services: ['Drain cleaning'] })])
  given(started(1), recorded(1, { business_summary: 'Plumbing in Austin' }))
    .when(answer(1, { business_summary: 'Plumbing in Austin' }))
    .thenNothingHappens(t)
  given(started(1), recorded(1, ALMOST))
    .when(answer(1, { goals: ['more_calls', 'local_visibility', 'more_calls'] }))
    .then(t, [recorded(1, { goals: ['more_calls', 'local_visibility'] }), completed(1)])
  // A single text is a list of one, and one option of a multi_choice.
  given(started(1), recorded(1, ALMOST))
    .when(answer(1, { goals: 'more_leads', competitors: 'Rival Rooter' }))
    .then(t, [recorded(1, { goals: ['more_leads'], competitors: ['Rival Rooter'] }), completed(1)])
  // Corrections after completion are recorded; the survey stays completed (no second SurveyCompleted).
  given(started(1), recorded(1, { ...ALMOST, goals: ['more_calls'] }), completed(1))
    .when(answer(1, { brand_voice: 'professional', years_in_business: 15 }))
    .then(t, [recorded(1, { brand_voice: 'professional', years_in_business: 15 })])
  // Optional answers alone never complete a survey.
  given(started(1))
    .when(answer(1, { price_position: 'premium', seasonality: 'Busy in winter (frozen pipes)' }))
    .then(t, [recorded(1, { price_position: 'premium', seasonality: 'Busy in winter (frozen pipes)' })])
  // Answers to an older survey of the client go to that survey.
  given(started(1), recorded(1, { ...ALMOST, goals: ['more_calls'] }), completed(1), started(2))
    .when(answer(1, { competitors: ['Rival Rooter'] }))
    .then(t, [recorded(1, { competitors: ['Rival Rooter'] })])
})

t.test('refusals name the answer; one bad answer records nothing', async (t) => {
  const refused = (answers: Record<string, unknown>, detail: string) =>
    given(started(1)).when(answer(1, answers)).thenThrows(t, 'survey_answer_invalid', { detail })
  refused({ business_summary: 'ok', no_such: 'x' }, 'answers.no_such: no such question')
  refused({ business_summary: '   ' }, 'answers.business_summary: must not be empty')
  refused({ business_summary: ['a'] }, 'answers.business_summary: expected a text')
  refused({ business_summary: 'x'.repeat(TEXT_MAX_LENGTH + 1) }, `answers.business_summary: at most ${TEXT_MAX_LENGTH} characters`)
  refused({ services: [] }, 'answers.services: needs at least one item')
  refused({ services: [' ', ''] }, 'answers.services: needs at least one item')
  refused({ services: [3] }, 'answers.services: expected a list of texts')
  refused(
    { services: Array.from({ length: LIST_MAX_ITEMS + 1 }, (_, i) => `service ${i}`) },
    `answers.services: at most ${LIST_MAX_ITEMS} items`,
  )
  refused({ services: ['x'.repeat(201)] }, 'answers.services: each item at most 200 characters')
  refused({ brand_voice: 'grumpy' }, 'answers.brand_voice: expected one of friendly, professional, authoritative, playful, premium')
  refused({ brand_voice: ['friendly'] }, 'answers.brand_voice: expected one of friendly, professional, authoritative, playful, premium')
  refused(
    { goals: [] },
    'answers.goals: expected one or more of more_calls, more_leads, online_sales, local_visibility, ai_visibility, brand_awareness',
  )
  refused(
    { goals: ['more_calls', 'world_domination'] },
    'answers.goals: expected one of more_calls, more_leads, online_sales, local_visibility, ai_visibility, brand_awareness',
  )
  refused({ years_in_business: -1 }, 'answers.years_in_business: expected a whole number from 0 to 1000000')
  refused({ years_in_business: 2.5 }, 'answers.years_in_business: expected a whole number from 0 to 1000000')
  refused({ years_in_business: '12' }, 'answers.years_in_business: expected a whole number from 0 to 1000000')
  given()
    .when(answer(9, { business_summary: 'x' }))
    .thenThrows(t, 'not_found', { detail: 'survey 9 not found' })
})

t.test('checkedAnswer keeps the first spelling of a repeated list item', async (t) => {
  const services = questionsOf(ONBOARDING_V1).find((q) => q.id === 'services')!
  t.same(checkedAnswer(services, ['Water Heaters', 'water heaters', 'Leaks']), ['Water Heaters', 'Leaks'])
})
