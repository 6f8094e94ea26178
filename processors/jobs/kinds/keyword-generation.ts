import { writableClient } from '../../../commands/aeo/capture-facts.js'
import { loadQuestionSet } from '../../../commands/aeo/questions.js'
import { addGeneratedKeywords } from '../../../commands/keywords.js'
import { liveQuestions } from '../../../domain/aeo/questions/question-set.js'
import { DEFAULT_MAX_KEYWORDS, generateKeywords, rankAndCap, type KeywordCandidate } from '../../../domain/keywords/generate.js'
import { keywordRequest, readKeywordAnswer } from '../../../domain/keywords/model-answer.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { LanguageModelError } from '../../language-model/port.js'
import type { JobHandler } from '../handler.js'

const MAX_TOKENS = 4096

/**
 * keyword_generation: the built-in candidates (services × locations patterns and the keyword forms of the
 * client's active AI Visibility questions), plus a language model's ideas when one is configured, ranked,
 * de-duplicated and capped at max_keywords, then added as keywords of the client (get-or-create: existing
 * keywords are counted, keywords a person deleted stay deleted). Safe to re-run: adding again adds nothing.
 */
export const keywordGenerationHandler: JobHandler<'keyword_generation'> = async (ctx) => {
  const { job } = ctx
  const max = job.payload.max_keywords ?? DEFAULT_MAX_KEYWORDS
  const owner = await writableClient(ctx.store, job.clientId!, job.orgId)
  const questions = liveQuestions(await loadQuestionSet(ctx.write, owner.id)).filter((q) => q.active)
  const services = owner.services.map((s) => s.name)
  const locations = owner.locations.map((l) => l.name)
  await ctx.progress(0, 2, 'building candidates')
  const builtIn = generateKeywords({ services, locations: owner.locations, questions, max })
  let fromModel: KeywordCandidate[] = []
  let modelError: string | null = null
  if (ctx.languageModel && services.length > 0) {
    try {
      const text = await ctx.languageModel.complete({
        ...keywordRequest({ services, locations, max }),
        maxTokens: MAX_TOKENS,
        signal: ctx.signal,
      })
      fromModel = readKeywordAnswer(text, { services, locations })
    } catch (error) {
      if (!(error instanceof LanguageModelError)) throw error
      modelError = error.message
      ctx.log.warn({ job_id: job.jobId, error: error.message }, 'keyword_generation: the language model failed; built-in candidates only')
    }
  }
  const candidates = rankAndCap([...builtIn, ...fromModel], max)
  if (candidates.length === 0) {
    throw new DomainError(
      'keyword_no_services',
      'The client has no services or AI Visibility questions to build keywords from',
      `client ${owner.id}`,
    )
  }
  ctx.signal.throwIfAborted()
  await ctx.progress(1, 2, `adding ${candidates.length} candidates`)
  const result = await addGeneratedKeywords(ctx.write, ctx.command, {
    callerOrgId: job.orgId,
    clientId: owner.id,
    candidates: candidates.map((c) => ({ keyword: c.keyword, source: c.source, service: c.service, location: c.location })),
  })
  await ctx.settle(result.position)
  await ctx.progress(2, 2)
  const kept = new Set(candidates.map((c) => c.keyword))
  return {
    client_id: owner.id,
    candidates: candidates.length,
    added: result.added,
    existing: result.existing,
    deleted_skipped: result.deletedSkipped,
    over_cap: result.overCap,
    keyword_ids: result.keywordIds,
    total_active: result.totalActive,
    from_questions: candidates.filter((c) => c.source === 'aeo').length,
    from_model: fromModel.filter((c) => kept.has(c.keyword)).length,
    writer: ctx.languageModel && modelError === null ? ctx.languageModel.name : 'built-in',
    ...(modelError ? { model_error: modelError } : {}),
  }
}
