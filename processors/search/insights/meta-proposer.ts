import type { Logger } from 'pino'
import type { WriteDeps } from '../../../commands/command-handler.js'
import type { DecodedEvent } from '../../../commands/event-store/decode.js'
import type { AnyEvent } from '../../../domain/events.js'
import { loadInsightSet } from '../../../commands/search/insights/insights.js'
import {
  loadMetaOptimizations,
  metaSubject,
  proposeMetaOptimization,
  recordMetaEditOutcome,
} from '../../../commands/search/insights/meta-optimizations.js'
import { BUILT_IN_META_WRITER } from '../../../domain/search/insights/meta-limits.js'
import { readMetaRewriteAnswer, metaRewriteRequest } from '../../../domain/search/insights/meta-model-answer.js'
import { openForPage, proposedSince } from '../../../domain/search/insights/meta-optimization-set.js'
import { builtInMetaRewrite, type MetaRewrite } from '../../../domain/search/insights/meta-writer.js'
import { metaReads } from '../../../projections/search/insights/reads.js'
import type { ReadDb } from '../../../projections/tables.js'
import type { ProjectionWatermark } from '../../../projections/watermark.js'
import type { LanguageModel } from '../../language-model/port.js'
import { aboutSandbox } from '../../sandbox-fiction.js'
import { causedBy, isSettledRefusal } from './event-context.js'

export const META_PROPOSER_NAME = 'seo_meta_proposer'
const ACTOR_ID = 'seo-meta-proposer'
const READ_MODEL_WAIT_MS = 30_000
/** A page gets at most one automatic proposal per this many days: its new CTR needs time in the results to be judged. */
export const META_PROPOSAL_COOLDOWN_DAYS = 7
const MAX_TOKENS = 400
const MODEL_TIMEOUT_MS = 60_000

export interface MetaProposerDeps {
  readonly write: WriteDeps
  readonly read: ReadDb
  readonly watermark: Pick<ProjectionWatermark, 'waitFor'>
  readonly languageModel: LanguageModel | null
  readonly log: Logger
}

export type MetaProposerOutcome =
  | { readonly kind: 'proposed'; readonly optimizationId: number; readonly writer: string }
  | { readonly kind: 'recorded'; readonly optimizationId: number }
  | { readonly kind: 'skipped'; readonly reason: string }

const skipped = (reason: string): MetaProposerOutcome => ({ kind: 'skipped', reason })

/** The model's rewrite, or null (no model, a failure, an answer that does not fit): the built-in writer's then. */
async function modelRewrite(deps: MetaProposerDeps, request: Parameters<typeof metaRewriteRequest>[0]): Promise<MetaRewrite | null> {
  if (!deps.languageModel) return null
  try {
    const text = await deps.languageModel.complete({
      ...metaRewriteRequest(request),
      maxTokens: MAX_TOKENS,
      signal: AbortSignal.timeout(MODEL_TIMEOUT_MS),
    })
    return readMetaRewriteAnswer(text)
  } catch (error) {
    deps.log.warn(
      { err: error, model: deps.languageModel.name },
      'meta rewrite by the language model failed; the built-in writer writes it',
    )
    return null
  }
}

/**
 * A low_ctr insight about a client page gets a proposed title and description rewrite for its query, unless
 * the page has an open optimization or had one proposed in the cooldown (checked against the insight's own
 * time, so a redelivered event decides as the first delivery did), or the insight no longer holds.
 */
async function proposeFor(
  deps: MetaProposerDeps,
  event: DecodedEvent<Extract<AnyEvent, { readonly type: 'SeoInsightRaised' }>>,
): Promise<MetaProposerOutcome> {
  const d = event.data
  if (d.insight_type !== 'low_ctr' || d.page_id === null) return skipped('not a low_ctr insight about a client page')
  const insights = await loadInsightSet(deps.write, d.client_id)
  if (insights.keyOf.get(d.insight_id) === undefined) return skipped('the insight no longer holds')
  const state = await loadMetaOptimizations(deps.write, d.client_id)
  if (openForPage(state, d.page_id)) return skipped('the page has an open meta optimization')
  const at = new Date(event.metadata.occurred_at ?? event.recordedAt.toISOString())
  const since = new Date(at.getTime() - META_PROPOSAL_COOLDOWN_DAYS * 24 * 60 * 60 * 1000).toISOString()
  if (proposedSince(state, d.page_id, since) > 0) return skipped(`the page had a proposal in the last ${META_PROPOSAL_COOLDOWN_DAYS} days`)
  if (!(await deps.watermark.waitFor(event.position, READ_MODEL_WAIT_MS))) {
    throw new Error(`the read models did not reach ${event.type} ${event.id} in ${READ_MODEL_WAIT_MS} ms`)
  }
  const query = typeof d.evidence.query === 'string' ? d.evidence.query : ''
  const subject = await metaSubject(deps.write, metaReads(deps.read), {
    clientId: d.client_id,
    callerOrgId: null,
    pageId: d.page_id,
    query,
  })
  const byModel = await modelRewrite(deps, {
    ...subject.brief,
    pageUrl: subject.page.url,
    pageText: subject.page.snapshot?.content ?? '',
  })
  const writer = byModel && deps.languageModel ? deps.languageModel.name : BUILT_IN_META_WRITER
  const { optimizationId } = await proposeMetaOptimization(deps.write, causedBy(ACTOR_ID, event), {
    subject,
    insightId: d.insight_id,
    rewrite: byModel ?? builtInMetaRewrite(subject.brief),
    writer,
  })
  return { kind: 'proposed', optimizationId, writer }
}

/**
 * The meta proposer's work for one event: a raised low_ctr insight gets a proposal; a published or rolled
 * back site edit is recorded on its meta optimization, whoever applied it (apply_site_edit included).
 * A refusal that is the record's answer (the page has an open proposal since, the client was deleted) ends
 * the event's work; anything else is thrown for the subscription to retry.
 */
export async function handleMetaEvent(deps: MetaProposerDeps, event: DecodedEvent): Promise<MetaProposerOutcome> {
  if (await aboutSandbox(deps.write.store, event)) return skipped('the sandbox is fiction its seeder writes')
  try {
    switch (event.type) {
      case 'SeoInsightRaised':
        return await proposeFor(deps, event)
      case 'SiteEditApplied':
      case 'SiteEditRolledBack': {
        const outcome = await recordMetaEditOutcome(deps.write, causedBy(ACTOR_ID, event), { editId: event.data.edit_id })
        return outcome.optimizationId === null
          ? skipped('not a meta optimization’s edit')
          : { kind: 'recorded', optimizationId: outcome.optimizationId }
      }
      default:
        return skipped(`${event.type} is not the proposer's`)
    }
  } catch (error) {
    if (!isSettledRefusal(error)) throw error
    deps.log.warn({ code: error.code, detail: error.detail, type: event.type, event: event.id }, 'meta proposer: nothing to do')
    return skipped(error.code)
  }
}
