import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { recordSurveyAnswers, startClientSurvey } from '../../commands/search/surveys.js'

/** What the sandbox's fictional plumber answered, in two sittings (as an agency fills it in with a client). */
const FIRST_SITTING = {
  business_summary: 'Family-run plumbing company in Austin fixing drains, water heaters and emergencies since 2009.',
  services: ['Drain cleaning', 'Water heater repair', 'Emergency plumbing'],
  service_area: ['Austin, TX', 'Round Rock, TX'],
  years_in_business: 17,
}
const SECOND_SITTING = {
  ideal_customer: 'Homeowners with a clogged drain, a cold shower or a burst pipe who want a plumber at the door today.',
  differentiators: ['Same-day visits, 24/7 for emergencies', 'Flat-rate prices quoted before work starts', 'Licensed and insured'],
  competitors: ['Lone Star Drains (fictional)', 'Hill Country Plumbing Co. (fictional)'],
  brand_voice: 'friendly',
  goals: ['more_calls', 'local_visibility', 'ai_visibility'],
  price_position: 'mid_market',
  seasonality: 'Busiest in winter freezes (burst pipes) and around the holidays (kitchen drains).',
}

/** The sandbox's fictional onboarding survey for its client, answered in full (completed). */
export async function seedSandboxSurveys(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const caller = { callerOrgId: orgId, clientId }
  const { surveyId } = await startClientSurvey(write, ctx, caller)
  await recordSurveyAnswers(write, ctx, { ...caller, surveyId, answers: FIRST_SITTING })
  await recordSurveyAnswers(write, ctx, { ...caller, surveyId, answers: SECOND_SITTING })
}
