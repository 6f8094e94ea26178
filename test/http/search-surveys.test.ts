/**
 * Onboarding surveys through the RPCs: starting one (a second start answers the open survey), partial answers,
 * completion once every required answer is in, corrections after it, refused answers that record nothing, the
 * reads, deleted clients, and another organization's survey or client answering like a missing one.
 */
import t from 'tap'
import { surveySetStream } from '../../domain/search/surveys/survey-set.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

interface Question {
  id: string
  prompt: string
  kind: string
  required: boolean
  options: string[] | null
  answer: string | number | string[] | null
}

interface Survey {
  survey_id: number
  client_id: number
  questionnaire: string
  status: 'in_progress' | 'completed'
  required_total: number
  required_answered: number
  questions: Question[]
  created_at: string
  updated_at: string
  completed_at: string | null
}

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const plumbers = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
const roofers = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)

const answerOf = (survey: Survey, id: string) => survey.questions.find((q) => q.id === id)!.answer
const record = (survey_id: number, answers: Record<string, unknown>, key = org.key) =>
  ts.call<Survey>('record_survey_answers', { survey_id, answers }, key)

let first: Survey

t.test('create_client_survey starts one survey; a second call answers the open one', async (t) => {
  first = await ts.call<Survey>('create_client_survey', { client_id: plumbers }, org.key)
  t.match(first, {
    client_id: plumbers,
    questionnaire: 'onboarding-v1',
    status: 'in_progress',
    required_total: 7,
    required_answered: 0,
    completed_at: null,
  })
  t.same(
    first.questions.map((q) => q.id),
    [
      'business_summary',
      'services',
      'service_area',
      'ideal_customer',
      'differentiators',
      'competitors',
      'brand_voice',
      'goals',
      'price_position',
      'years_in_business',
      'seasonality',
      'avoid_topics',
    ],
  )
  t.match(
    first.questions.find((q) => q.id === 'brand_voice'),
    {
      kind: 'choice',
      required: true,
      options: ['friendly', 'professional', 'authoritative', 'playful', 'premium'],
      answer: null,
    },
  )
  t.equal(first.questions.find((q) => q.id === 'services')!.options, null, 'no options for a list')
  const before = await eventCount(ts)
  t.same(await ts.call('create_client_survey', { client_id: plumbers }, org.key), first, 'the open survey')
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.same(await ts.call('get_survey', { survey_id: first.survey_id }, org.key), first)
})

t.test('partial answers, then completion with the last required one, then corrections', async (t) => {
  const partial = await record(first.survey_id, {
    business_summary: ' Family plumbing   in Austin since 2009 ',
    services: ['Drain cleaning', 'drain cleaning', 'Water heaters'],
    service_area: 'Austin, TX',
    years_in_business: 17,
  })
  t.match(partial, { status: 'in_progress', required_answered: 3, completed_at: null })
  t.equal(answerOf(partial, 'business_summary'), 'Family plumbing in Austin since 2009')
  t.same(answerOf(partial, 'services'), ['Drain cleaning', 'Water heaters'])
  t.same(answerOf(partial, 'service_area'), ['Austin, TX'])
  t.equal(answerOf(partial, 'years_in_business'), 17)

  const before = await eventCount(ts)
  t.same(await record(first.survey_id, { years_in_business: 17 }), partial, 'the same answer again')
  t.equal(await eventCount(ts), before, 'records nothing')

  const almost = await record(first.survey_id, {
    ideal_customer: 'Homeowners with an urgent clog',
    differentiators: ['Same-day visits'],
    brand_voice: 'friendly',
  })
  t.match(almost, { status: 'in_progress', required_answered: 6 })
  const done = await record(first.survey_id, { goals: ['more_calls', 'local_visibility'], competitors: ['Rival Rooter'] })
  t.match(done, { status: 'completed', required_answered: 7, completed_at: String })
  t.same(
    (await streamEvents(ts, surveySetStream(plumbers))).map((e) => e.type),
    ['SurveyStarted', 'SurveyAnswersRecorded', 'SurveyAnswersRecorded', 'SurveyAnswersRecorded', 'SurveyCompleted'],
  )
  const corrected = await record(first.survey_id, { brand_voice: 'professional' })
  t.match(corrected, { status: 'completed', completed_at: done.completed_at }, 'stays completed, at the first time')
  t.equal(answerOf(corrected, 'brand_voice'), 'professional')
  t.same(answerOf(corrected, 'goals'), ['more_calls', 'local_visibility'])

  const second = await ts.call<Survey>('create_client_survey', { client_id: plumbers }, org.key)
  t.not(second.survey_id, first.survey_id, 'a completed survey leaves room for a new one')
  t.match(second, { status: 'in_progress', required_answered: 0 })
  t.same(
    (await ts.call<Survey[]>('get_surveys_for_client', { client_id: plumbers }, org.key)).map((s) => [s.survey_id, s.status]),
    [
      [second.survey_id, 'in_progress'],
      [first.survey_id, 'completed'],
    ],
    'newest first',
  )
  t.same(await ts.call('get_surveys_for_client', { client_id: roofers }, org.key), [], 'none yet')
})

t.test('a refused answer records nothing', async (t) => {
  const before = await eventCount(ts)
  const refused = expectError(
    t,
    await ts.rpc(
      'record_survey_answers',
      { survey_id: first.survey_id, answers: { seasonality: 'Winter', brand_voice: 'grumpy' } },
      org.key,
    ),
    400,
    'survey_answer_invalid',
  )
  t.equal(refused.detail, 'answers.brand_voice: expected one of friendly, professional, authoritative, playful, premium')
  t.equal(
    expectError(
      t,
      await ts.rpc('record_survey_answers', { survey_id: first.survey_id, answers: { shoe_size: '44' } }, org.key),
      400,
      'survey_answer_invalid',
    ).detail,
    'answers.shoe_size: no such question',
  )
  expectError(
    t,
    await ts.rpc('record_survey_answers', { survey_id: first.survey_id, answers: { goals: [] } }, org.key),
    400,
    'survey_answer_invalid',
  )
  expectError(t, await ts.rpc('record_survey_answers', { survey_id: first.survey_id, answers: {} }, org.key), 400, 'validation_failed')
  expectError(
    t,
    await ts.rpc('record_survey_answers', { survey_id: first.survey_id, answers: { years_in_business: 1.5 } }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('record_survey_answers', { survey_id: first.survey_id, answers: { goals: { a: 1 } } }, org.key),
    400,
    'validation_failed',
  )
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.equal(answerOf(await ts.call<Survey>('get_survey', { survey_id: first.survey_id }, org.key), 'seasonality'), null)
})

t.test('a deleted client keeps its surveys readable and takes no answers', async (t) => {
  const survey = await ts.call<Survey>('create_client_survey', { client_id: roofers }, org.key)
  await ts.call('set_client_status', { client_id: roofers, status: 'deleted' }, org.key)
  expectError(
    t,
    await ts.rpc('record_survey_answers', { survey_id: survey.survey_id, answers: { brand_voice: 'playful' } }, org.key),
    409,
    'client_deleted',
  )
  expectError(t, await ts.rpc('create_client_survey', { client_id: roofers }, org.key), 409, 'client_deleted')
  t.same((await ts.call<Survey[]>('get_surveys_for_client', { client_id: roofers }, org.key)).length, 1)
  const readOnly = await ts.call<{ key: string }>('create_api_key', { name: 'ro', org_id: org.orgId, scopes: 'read' })
  expectError(t, await ts.rpc('create_client_survey', { client_id: plumbers }, readOnly.key), 403, 'insufficient_scope')
})

t.test("another organization's survey or client answers exactly like a missing one", async (t) => {
  const foreign = await ts.call<Survey>('create_client_survey', { client_id: foreignClient }, other.key)
  const before = await eventCount(ts)
  const missing = 987_654
  const same = async (method: string, body: (id: number) => Record<string, unknown>, foreignId: number) => {
    const a = expectError(t, await ts.rpc(method, body(foreignId), org.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, body(missing), org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, [foreignId]), withoutIds(b, [missing]), `${method}: same body`)
  }
  await same('get_survey', (id) => ({ survey_id: id }), foreign.survey_id)
  await same('record_survey_answers', (id) => ({ survey_id: id, answers: { brand_voice: 'friendly' } }), foreign.survey_id)
  await same('get_surveys_for_client', (id) => ({ client_id: id }), foreignClient)
  await same('create_client_survey', (id) => ({ client_id: id }), foreignClient)
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.match(await ts.call('get_survey', { survey_id: foreign.survey_id }, other.key), { client_id: foreignClient, status: 'in_progress' })
  t.match(
    await ts.call('get_survey', { survey_id: foreign.survey_id }),
    { client_id: foreignClient },
    'a platform key reads any organization',
  )
})
