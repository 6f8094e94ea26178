import { z } from 'zod'
import { recordSurveyAnswers, startClientSurvey } from '../../../commands/search/surveys.js'
import { SurveyAnswerValue } from '../../../domain/search/surveys/events.js'
import { CURRENT_QUESTIONNAIRE, questionsOf } from '../../../domain/search/surveys/questions.js'
import { MAX_SURVEYS_PER_CLIENT } from '../../../domain/search/surveys/survey-set.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { surveysOfClient, surveyView, visibleSurvey, type SurveyView } from '../../../projections/search/surveys/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'search'

/** How long create_client_survey waits for the read models to show a survey in progress it answers. */
const OPEN_SURVEY_WAIT_MS = 5_000

const SurveyId = Id.describe('The survey (an integer id, as create_client_survey or get_surveys_for_client answered)')

const QuestionSchema = z
  .object({
    id: z.string().describe('The question id: record_survey_answers takes answers by it'),
    prompt: z.string().describe('The question as asked'),
    kind: z
      .enum(['text', 'list', 'choice', 'multi_choice', 'number'])
      .describe(
        'text: one text; list: several texts; choice: one of options; multi_choice: one or more of options; number: a whole number',
      ),
    required: z.boolean().describe('Whether the survey needs it to be completed'),
    options: z.array(z.string()).nullable().describe('The allowed values of a choice or multi_choice question; null for other kinds'),
    answer: SurveyAnswerValue.nullable().describe('The recorded answer (text, number, or list of texts); null while unanswered'),
  })
  .describe('A question with its answer')

const SurveySchema = z
  .object({
    survey_id: SurveyId,
    client_id: ClientId,
    questionnaire: z.string().describe(`The questionnaire it was started with (new surveys: ${CURRENT_QUESTIONNAIRE})`),
    status: z.enum(['in_progress', 'completed']).describe('in_progress until every required question has an answer, then completed'),
    required_total: z.number().int().describe('How many questions are required'),
    required_answered: z.number().int().describe('How many required questions have an answer'),
    questions: z.array(QuestionSchema).describe("The questionnaire's questions in order, each with its answer"),
    created_at: z.string().describe('When the survey was started (ISO 8601)'),
    updated_at: z.string().describe('When an answer was last recorded'),
    completed_at: z.string().nullable().describe('When the last required answer came in; null while in progress'),
  })
  .describe('An onboarding survey')

/** A real answer to every question of the current questionnaire: what the sandbox's client answered. */
const exampleAnswers: Record<string, z.infer<typeof SurveyAnswerValue>> = {
  business_summary: 'Family-run plumbing company fixing drains, leaks and water heaters around Austin since 2009.',
  services: ['Drain cleaning', 'Water heater repair', 'Leak detection'],
  service_area: ['Austin, TX', 'Round Rock, TX'],
  ideal_customer: 'Homeowners with an urgent leak or clog who want someone at the door today.',
  differentiators: ['Same-day visits', 'Flat-rate pricing quoted before work starts'],
  brand_voice: 'friendly',
  goals: ['more_calls', 'local_visibility'],
}

const exampleSurvey = (status: 'in_progress' | 'completed'): SurveyView => {
  const questions = questionsOf(CURRENT_QUESTIONNAIRE).map((q) => ({
    id: q.id,
    prompt: q.prompt,
    kind: q.kind,
    required: q.required,
    options: q.options ? [...q.options] : null,
    answer: status === 'completed' ? (exampleAnswers[q.id] ?? null) : null,
  }))
  const required = questions.filter((q) => q.required)
  return {
    survey_id: 58,
    client_id: 34,
    questionnaire: CURRENT_QUESTIONNAIRE,
    status,
    required_total: required.length,
    required_answered: required.filter((q) => q.answer !== null).length,
    questions,
    created_at: '2026-03-02T15:04:05.000Z',
    updated_at: status === 'completed' ? '2026-03-03T09:12:40.000Z' : '2026-03-02T15:04:05.000Z',
    completed_at: status === 'completed' ? '2026-03-03T09:12:40.000Z' : null,
  }
}

export const surveysRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'create_client_survey',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Start an onboarding survey for a client (questions about its services, service area, ideal customer, differentiators, ' +
      'competitors, brand voice and goals). A client has at most one survey in progress: while one is, this returns it instead ' +
      `of starting another. At most ${MAX_SURVEYS_PER_CLIENT} surveys per client (409 survey_limit). Returns the survey with its questions.`,
    example: { params: { client_id: 34 }, result: exampleSurvey('in_progress') },
    params: z.strictObject({ client_id: ClientId }),
    result: SurveySchema,
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const { surveyId, created, position } = await startClientSurvey(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: client.id,
      })
      await ctx.settle()
      // An open survey answered: this request appended nothing, so wait for the log as it was instead.
      if (!created && position) await ctx.waitForReadModels(position, OPEN_SURVEY_WAIT_MS)
      return surveyView(await visibleSurvey(ctx.read, ctx.orgId, surveyId))
    },
  }),
  rpc({
    name: 'record_survey_answers',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Record answers to a survey by question id (get_survey lists the questions, kinds and options). Partial answers are fine: ' +
      'the survey stays in_progress until every required question has an answer, then it is completed. An answer given again ' +
      'replaces the earlier one; answers cannot be removed. Every answer is checked first: one that does not fit its question ' +
      '(400 survey_answer_invalid, detail names it) records nothing. Returns the survey.',
    example: {
      params: { survey_id: 58, answers: exampleAnswers },
      result: exampleSurvey('completed'),
    },
    params: z.strictObject({
      survey_id: SurveyId,
      answers: z
        .record(z.string().min(1).max(100), SurveyAnswerValue)
        .refine((answers) => Object.keys(answers).length > 0, 'needs at least one answer')
        .describe(
          'Answers by question id: a text for text and choice questions, a list of texts for list and multi_choice ' +
            '(a single text counts as a list of one), a whole number for number questions',
        ),
    }),
    result: SurveySchema,
    async handler(ctx) {
      const survey = await visibleSurvey(ctx.read, ctx.orgId, ctx.params.survey_id)
      await recordSurveyAnswers(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: survey.client_id,
        surveyId: survey.id,
        answers: ctx.params.answers,
      })
      await ctx.settle()
      return surveyView(await visibleSurvey(ctx.read, ctx.orgId, survey.id))
    },
  }),
  rpc({
    name: 'get_surveys_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's onboarding surveys, newest first, each with its questions and answers ([] when none).",
    example: { params: { client_id: 34 }, result: [exampleSurvey('completed')] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(SurveySchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return surveysOfClient(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_survey',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One onboarding survey with its questions (id, prompt, kind, required, options) and the answers recorded so far.',
    example: { params: { survey_id: 58 }, result: exampleSurvey('completed') },
    params: z.strictObject({ survey_id: SurveyId }),
    result: SurveySchema,
    handler: async (ctx) => surveyView(await visibleSurvey(ctx.read, ctx.orgId, ctx.params.survey_id)),
  }),
]
