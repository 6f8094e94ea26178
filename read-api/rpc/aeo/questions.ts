import { z } from 'zod'
import {
  addQuestion,
  dedupeQuestions,
  deleteClientQuestions,
  deleteQuestion,
  generateClientQuestions,
  updateQuestion,
} from '../../../commands/aeo/questions.js'
import { EngineInput } from '../../../domain/aeo/engines.js'
import { Prompt, QuestionKind } from '../../../domain/aeo/questions/events.js'
import { MAX_QUESTIONS_PER_CLIENT } from '../../../domain/aeo/questions/question-set.js'
import { MAX_GENERATED } from '../../../domain/aeo/questions/generate.js'
import { promptKey } from '../../../domain/aeo/prompt.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  capturedQuestionIds,
  hasCaptures,
  listQuestions,
  questionView,
  visibleQuestion,
} from '../../../projections/aeo/questions/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'

const domain = 'ai-visibility'

/** A prompt must carry words: "???" normalizes to nothing and could never be told apart from another. */
const PromptInput = Prompt.refine((prompt) => promptKey(prompt) !== '', 'a question needs letters or digits')

const QuestionViewSchema = z.object({
  id: Id,
  client_id: Id,
  prompt: z.string(),
  engine: z.string(),
  service: z.string(),
  location: z.string(),
  kind: z.string(),
  priority: z.number().int(),
  active: z.boolean(),
  source: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  capture_count: z.number().int(),
  last_month: z.string().nullable(),
})

export const aeoQuestionsRpcs: AnyRpc[] = [
  rpc({
    name: 'generate_aeo_questions',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      `Build a buyer-style question set from the client's services × locations (best-of, near-me, cost, comparison and trust phrasings, ` +
      `each with service, location, kind and priority; at most ${MAX_GENERATED} per client). Calling it again adds only what is missing. ` +
      'Returns {added, total, query_ids}: questions added now, live questions of the client, and the ids of the generated set.',
    params: z.strictObject({ client_id: Id }),
    result: z.object({ added: z.number().int(), total: z.number().int(), query_ids: z.array(Id) }),
    async handler(ctx) {
      const result = await generateClientQuestions(ctx.write, ctx.command, { clientId: ctx.params.client_id, callerOrgId: ctx.orgId })
      return { added: result.added, total: result.total, query_ids: result.queryIds }
    },
  }),
  rpc({
    name: 'add_aeo_query',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Add a question for a client (get-or-create: a prompt that matches an existing question case- and punctuation-insensitively, ' +
      `under any engine, returns that question's id). engine defaults to chatgpt. At most ${MAX_QUESTIONS_PER_CLIENT} questions per client.`,
    params: z.strictObject({ client_id: Id, prompt: PromptInput, engine: EngineInput.prefault('chatgpt') }),
    result: Id,
    async handler(ctx) {
      const { client_id, prompt, engine } = ctx.params
      const { queryId } = await addQuestion(ctx.write, ctx.command, { clientId: client_id, prompt, engine, callerOrgId: ctx.orgId })
      return queryId
    },
  }),
  rpc({
    name: 'get_aeo_queries',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's questions: active first, then priority (highest first), then age (oldest first), each with capture_count and last_month.",
    params: z.strictObject({ client_id: Id }),
    result: z.array(QuestionViewSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return listQuestions(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_aeo_query',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One question with its capture_count and last_month.',
    params: z.strictObject({ query_id: Id }),
    result: QuestionViewSchema,
    handler: async (ctx) => questionView(ctx.read, ctx.orgId, ctx.params.query_id),
  }),
  rpc({
    name: 'update_aeo_query',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Change a question: active, priority (0–100), prompt, service or kind (only the fields given). A prompt that matches another ' +
      'question of the client answers 409 aeo_question_conflict. Deactivating a question cancels its queued runs. Returns the question.',
    params: z.strictObject({
      query_id: Id,
      active: z.boolean().optional(),
      priority: z.number().int().min(0).max(100).optional(),
      prompt: PromptInput.optional(),
      service: z.string().trim().max(200).optional(),
      kind: QuestionKind.optional(),
    }),
    result: QuestionViewSchema,
    async handler(ctx) {
      const { query_id, ...changes } = ctx.params
      const question = await visibleQuestion(ctx.read, ctx.orgId, query_id)
      await updateQuestion(ctx.write, ctx.command, { clientId: question.client_id, queryId: query_id, changes, callerOrgId: ctx.orgId })
      await ctx.settle()
      return questionView(ctx.read, ctx.orgId, query_id)
    },
  }),
  rpc({
    name: 'delete_aeo_query',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Delete a question: true when deleted. A question with captures is deactivated instead (its reports keep it) and answers false.',
    params: z.strictObject({ query_id: Id }),
    result: z.boolean(),
    async handler(ctx) {
      const question = await visibleQuestion(ctx.read, ctx.orgId, ctx.params.query_id)
      const captured = await hasCaptures(ctx.read, question.id)
      const { deleted } = await deleteQuestion(ctx.write, ctx.command, {
        clientId: question.client_id,
        queryId: question.id,
        captured,
        callerOrgId: ctx.orgId,
      })
      return deleted
    },
  }),
  rpc({
    name: 'delete_aeo_queries_for_client',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Delete a client's questions; returns how many were deleted. By default (uncaptured_only true) only questions never captured go; " +
      'with uncaptured_only false every question is deleted.',
    params: z.strictObject({ client_id: Id, uncaptured_only: z.boolean().default(true) }),
    result: z.number().int(),
    async handler(ctx) {
      const { client_id, uncaptured_only } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      const keep = uncaptured_only ? await capturedQuestionIds(ctx.read, client_id) : []
      const { deleted } = await deleteClientQuestions(ctx.write, ctx.command, { clientId: client_id, keep, keepCaptured: uncaptured_only, callerOrgId: ctx.orgId })
      return deleted
    },
  }),
  rpc({
    name: 'dedupe_aeo_queries',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Merge duplicate questions (same normalized prompt, e.g. added under different engines or older normalizations) into the oldest ' +
      'of each group, which stays active if any was and takes the highest priority; captures, runs and item links are re-pointed to it. ' +
      'Returns {merged, groups: [{canonical_id, merged_ids}], total}.',
    params: z.strictObject({ client_id: Id }),
    result: z.object({
      merged: z.number().int(),
      groups: z.array(z.object({ canonical_id: Id, merged_ids: z.array(Id) })),
      total: z.number().int(),
    }),
    async handler(ctx) {
      const { groups, total } = await dedupeQuestions(ctx.write, ctx.command, { clientId: ctx.params.client_id, callerOrgId: ctx.orgId })
      return { merged: groups.reduce((n, g) => n + g.merged_ids.length, 0), groups, total }
    },
  }),
]
