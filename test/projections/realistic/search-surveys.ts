import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The surveys part of the realistic log, through HTTP: a survey started (and started again: the open one),
 * answered in parts until completed, corrected afterwards, a second survey, a refused answer, another
 * organization's survey in progress and a refused foreign answer.
 */
export async function writeSurveysLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  const { survey_id } = await call<{ survey_id: number }>('create_client_survey', { client_id: plumbers }, keys.orgA)
  await call('create_client_survey', { client_id: plumbers }, keys.orgA) // the open one
  const answer = (id: number, answers: Record<string, unknown>, key = keys.orgA) =>
    call('record_survey_answers', { survey_id: id, answers }, key)
  await answer(survey_id, {
    business_summary: 'Plumbing for Austin homes',
    services: ['Drain cleaning', 'Water heaters'],
    years_in_business: 12,
  })
  await answer(survey_id, { years_in_business: 12 }) // unchanged: nothing
  await answer(survey_id, {
    service_area: ['Austin, TX', 'Round Rock, TX'],
    ideal_customer: 'Homeowners with an urgent clog',
    differentiators: ['Same-day visits'],
    brand_voice: 'friendly',
  })
  await answer(survey_id, { goals: ['more_calls'] }) // the last required one: completed
  await answer(survey_id, { brand_voice: 'professional', competitors: ['Rival Rooter'] }) // a correction
  const refused = await ts.rpc('record_survey_answers', { survey_id, answers: { goals: ['fame'] } }, keys.orgA)
  if (refused.statusCode !== 400) throw new Error(`a refused answer answered ${refused.statusCode}`)
  await call('create_client_survey', { client_id: plumbers }, keys.orgA) // a second survey

  const other = await call<{ survey_id: number }>('create_client_survey', { client_id: bravo }, keys.orgB)
  await answer(other.survey_id, { business_summary: 'Dental implants in Miami' }, keys.orgB)
  const foreign = await ts.rpc('record_survey_answers', { survey_id: other.survey_id, answers: { brand_voice: 'playful' } }, keys.orgA)
  if (foreign.statusCode !== 404) throw new Error(`a foreign answer answered ${foreign.statusCode}`)
}
