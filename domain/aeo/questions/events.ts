import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * A client's question set is one stream, `aeo_questions-<client_id>`, because "one row per normalized
 * prompt" is decided against the whole set. The question set is engine-neutral: `engine` is only the
 * engine it was first added for (the spec's default is chatgpt); runs ask it on every cadence engine.
 */
export const QuestionKind = z.enum(['best-of', 'comparison', 'cost', 'near-me', 'trust', 'custom'])
export const Prompt = z.string().trim().min(3).max(500)

export const AeoQuestionAdded = z.object({
  client_id: Id,
  query_id: Id,
  prompt: Prompt,
  /** promptKey(prompt): the de-duplication identity. */
  prompt_key: z.string(),
  engine: z.string(),
  service: z.string().max(200),
  /** The location the question is about ('' when none). */
  location: z.string().max(200),
  kind: QuestionKind,
  priority: z.number().int().min(0).max(100),
  active: z.boolean(),
  source: z.enum(['generated', 'manual']),
})

/** Only the fields that changed are present (prompt_key with prompt). */
export const AeoQuestionUpdated = z.object({
  client_id: Id,
  query_id: Id,
  active: z.boolean().optional(),
  priority: z.number().int().min(0).max(100).optional(),
  prompt: Prompt.optional(),
  prompt_key: z.string().optional(),
  service: z.string().max(200).optional(),
  kind: QuestionKind.optional(),
})

export const AeoQuestionDeleted = z.object({ client_id: Id, query_id: Id })

/**
 * dedupe_aeo_queries: the merged rows are gone and everything that pointed at them (captures, runs,
 * tracker item links) points at the canonical row; each projector re-points its own tables.
 */
export const AeoQuestionsMerged = z.object({ client_id: Id, canonical_id: Id, merged_ids: z.array(Id).min(1) })

export const aeoQuestionEventSchemas = { AeoQuestionAdded, AeoQuestionUpdated, AeoQuestionDeleted, AeoQuestionsMerged } as const

type Schemas = typeof aeoQuestionEventSchemas
export type AeoQuestionEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
