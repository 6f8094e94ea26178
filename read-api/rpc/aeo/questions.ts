import { z } from 'zod'
import {
  addQuestion,
  dedupeQuestions,
  deleteClientQuestions,
  deleteQuestion,
  generateClientQuestions,
  updateQuestion,
} from '../../../commands/aeo/questions.js'
import { QuestionKind } from '../../../domain/aeo/questions/events.js'
import { MAX_QUESTIONS_PER_CLIENT } from '../../../domain/aeo/questions/question-set.js'
import { MAX_GENERATED } from '../../../domain/aeo/questions/generate.js'
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
import { ClientId, QueryId } from '../ids.js'
import { Engine, PromptInput } from './params.js'

const domain = 'ai-visibility'

const QuestionViewSchema = z.object({
  id: Id,
  client_id: ClientId,
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
    example: { params: { client_id: 34 }, result: { added: 24, total: 26, query_ids: [501, 502, 503] } },
    params: z.strictObject({ client_id: ClientId }),
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
    example: { params: { client_id: 34, prompt: 'Who is the best emergency plumber in Austin, TX?', engine: 'claude' }, result: 527 },
    params: z.strictObject({
      client_id: ClientId,
      prompt: PromptInput,
      engine: Engine.prefault('chatgpt').describe(
        'The engine the question was first asked of (default chatgpt); questions are shared by every engine of the cadence',
      ),
    }),
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
    summary:
      "A client's questions: active first, then priority (highest first), then age (oldest first), each with capture_count and last_month.",
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId }),
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
    example: {
      params: { query_id: 527 },
      result: {
        id: 527,
        client_id: 34,
        prompt: 'Who is the best emergency plumber in Austin, TX?',
        engine: 'claude',
        service: 'Drain cleaning',
        location: 'Austin, TX',
        kind: 'best-of',
        priority: 80,
        active: true,
        source: 'manual',
        created_at: '2026-03-02T15:04:05.000Z',
        updated_at: '2026-03-02T15:04:05.000Z',
        capture_count: 12,
        last_month: '2026-03',
      },
    },
    params: z.strictObject({ query_id: QueryId }),
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
    example: { params: { query_id: 527, priority: 90, kind: 'near-me' } },
    params: z.strictObject({
      query_id: QueryId,
      active: z.boolean().optional().describe('false: runs are no longer queued for it (its captures stay)'),
      priority: z.number().int().min(0).max(100).optional().describe('0 to 100, higher first in lists and the queue'),
      prompt: PromptInput.optional(),
      service: z.string().trim().max(200).optional().describe("The client's service it is about, at most 200 characters; empty: none"),
      kind: QuestionKind.optional().describe('The phrasing: best-of, comparison, cost, near-me, trust or custom'),
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
    summary:
      'Delete a question: true when deleted. A question with captures is deactivated instead (its reports keep it) and answers false.',
    example: { params: { query_id: 527 }, result: true },
    params: z.strictObject({ query_id: QueryId }),
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
    example: { params: { client_id: 34, uncaptured_only: true }, result: 3 },
    params: z.strictObject({
      client_id: ClientId,
      uncaptured_only: z
        .boolean()
        .default(true)
        .describe('Only questions never captured (default true); false: every question of the client'),
    }),
    result: z.number().int(),
    async handler(ctx) {
      const { client_id, uncaptured_only } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      const keep = uncaptured_only ? await capturedQuestionIds(ctx.read, client_id) : []
      const { deleted } = await deleteClientQuestions(ctx.write, ctx.command, {
        clientId: client_id,
        keep,
        keepCaptured: uncaptured_only,
        callerOrgId: ctx.orgId,
      })
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
    example: { params: { client_id: 34 }, result: { merged: 2, groups: [{ canonical_id: 501, merged_ids: [519, 527] }], total: 24 } },
    params: z.strictObject({ client_id: ClientId }),
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
