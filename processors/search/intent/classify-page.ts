import type { Logger } from 'pino'
import type { CommandContext, WriteDeps } from '../../../commands/command-handler.js'
import { intentContentHash } from '../../../commands/search/intent/content-hash.js'
import { loadPageIntent, recordIntentClassification } from '../../../commands/search/intent/page-intent.js'
import type { PageIntentClassifiedData } from '../../../domain/search/intent/events.js'
import { alreadyAnswered } from '../../../domain/search/intent/page-intent.js'
import { classifyIntentByRules, type IntentRuleInput } from '../../../domain/search/intent/rules.js'
import { intentClientFacts, pageForClassification } from '../../../projections/search/intent/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import type { LanguageModel } from '../../language-model/port.js'
import { askModel, type ModelRetryPolicy } from './ask-model.js'

export interface IntentClassifierDeps {
  readonly write: WriteDeps
  readonly read: ReadDb
  /** null: the rules classify everything. */
  readonly languageModel: LanguageModel | null
  readonly retry: ModelRetryPolicy
  readonly log: Logger
}

/**
 * Which pages a pass classifies: `missing`, a page whose current content has no classification yet (new
 * content as it arrives); `missing_or_fallback`, also one the rules classified because the model failed,
 * when a model is configured (classify_page_intents); `force`, every page (classify_page_intents with force).
 */
export type ClassifyMode = 'missing' | 'missing_or_fallback' | 'force'

export interface ClassifyOptions {
  readonly mode: ClassifyMode
  /** The classify_page_intents request being answered; null for content as it arrives. */
  readonly requestId: string | null
  /** false: the rules answer even with a model configured (the sandbox's fiction never spends model calls). */
  readonly useModel: boolean
}

export type ClassifyResult = 'recorded' | 'unchanged' | 'inactive' | 'missing'

/**
 * Classifies one page's current content (its newest snapshot, or its URL and title before it has one) and
 * records it, unless the page's record says it is already answered. The model reads only pages with
 * content: a page with nothing but a URL is the rules' to read. A model failure falls back to the rules and
 * the record says why (fallback_reason). Reads the read models (the caller has waited for them to show the
 * event it handles) and the page's intent stream (whose record decides).
 */
export async function classifyPage(
  deps: IntentClassifierDeps,
  context: CommandContext,
  pageId: number,
  options: ClassifyOptions,
  signal: AbortSignal,
): Promise<ClassifyResult> {
  const page = await pageForClassification(deps.read, pageId)
  if (!page) return 'missing'
  if (!page.active) return 'inactive'
  const title = page.snapshot?.title ?? page.title
  const content = page.snapshot?.content ?? ''
  const contentHash = intentContentHash(title, content)
  const state = await loadPageIntent(deps.write.store, pageId)
  const model = options.useModel && page.snapshot !== null ? deps.languageModel : null
  if (alreadyAnswered(state, { content_sha256: contentHash, request_id: options.requestId })) return 'unchanged'
  const known = state.classified.get(contentHash)
  if (known && options.mode === 'missing') return 'unchanged'
  if (known && options.mode === 'missing_or_fallback' && !(known.fellBack && model !== null)) return 'unchanged'

  const client = await intentClientFacts(deps.read, page.client_id)
  const input: IntentRuleInput = {
    url: page.url,
    title,
    content,
    client: client ?? { name: '', services: [], locations: [] },
  }
  let answer: Pick<PageIntentClassifiedData, 'intent' | 'confidence' | 'signals' | 'classifier' | 'model' | 'fallback_reason'>
  const outcome = model ? await askModel(model, input, deps.retry, signal) : null
  if (outcome?.ok) {
    answer = { ...outcome.classification, classifier: 'model', model: model!.name, fallback_reason: null }
  } else {
    if (outcome)
      deps.log.warn(
        { page_id: pageId, model: model!.name, reason: outcome.reason },
        'intent: the model failed; the rules classified the page',
      )
    answer = { ...classifyIntentByRules(input), classifier: 'rules', model: model?.name ?? null, fallback_reason: outcome?.reason ?? null }
  }
  const { recorded } = await recordIntentClassification(deps.write, context, {
    orgId: page.org_id,
    classification: {
      page_id: pageId,
      client_id: page.client_id,
      content_sha256: contentHash,
      snapshot_id: page.snapshot?.id ?? null,
      ...answer,
      request_id: options.requestId,
    },
  })
  return recorded ? 'recorded' : 'unchanged'
}
