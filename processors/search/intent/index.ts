import type { CommandContext } from '../../../commands/command-handler.js'
import type { DecodedEvent } from '../../../commands/event-store/decode.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
import { subscriptionProcessor } from '../../subscription.js'
import type { ProjectionWatermark } from '../../../projections/watermark.js'
import { classifyPage, type ClassifyOptions, type ClassifyResult, type IntentClassifierDeps } from './classify-page.js'
import { writtenBySandbox } from '../../sandbox-fiction.js'

export const INTENT_CLASSIFIER_NAME = 'search_intent_classifier'
const ACTOR_ID = 'search-intent'
/** How long the classifier waits for the read models to show an event before it tries the event again. */
const READ_MODEL_WAIT_MS = 30_000

/** A command caused by an event: its correlation carries over, so the log shows why a page was classified. */
function causedBy(event: DecodedEvent): CommandContext {
  return {
    actor: { kind: 'system', id: ACTOR_ID },
    requestId: null,
    correlationId: event.metadata.correlation_id ?? event.id,
    causationId: event.id,
  }
}

/**
 * What one event asks of the classifier: the pages to look at and how. New or changed content (a page added
 * or re-activated, its title changed, a snapshot) is classified if its hash is new; a classify_page_intents
 * request names its pages and mode.
 */
export function intentWork(event: DecodedEvent): { pageIds: readonly number[]; options: ClassifyOptions } | null {
  // The sandbox seeder's pages are fiction: classified by the rules only, never with a model call.
  const useModel = !writtenBySandbox(event)
  const asArrives = (pageId: number) => ({ pageIds: [pageId], options: { mode: 'missing', requestId: null, useModel } as const })
  switch (event.type) {
    case 'PageAdded':
      return event.data.active ? asArrives(event.data.page_id) : null
    case 'PageUpdated':
      return event.data.title !== undefined || event.data.active === true ? asArrives(event.data.page_id) : null
    case 'PageSnapshotRecorded':
      return asArrives(event.data.page_id)
    case 'PageIntentsRequested': {
      const d = event.data
      return { pageIds: d.page_ids, options: { mode: d.force ? 'force' : 'missing_or_fallback', requestId: d.request_id, useModel } }
    }
    default:
      return null
  }
}

/**
 * One event's work: waits for the read models to show the event (the classifier reads pages and snapshots
 * there), then classifies its pages in order. Throws when the read models lag too long or `signal` aborts:
 * the subscription then handles the event again, and the pages already answered record nothing twice.
 */
export async function handleIntentEvent(
  classifier: IntentClassifierDeps,
  watermark: Pick<ProjectionWatermark, 'waitFor'>,
  event: DecodedEvent,
  signal: AbortSignal,
): Promise<ClassifyResult[]> {
  const work = intentWork(event)
  if (!work) return []
  if (!(await watermark.waitFor(event.position, READ_MODEL_WAIT_MS))) {
    throw new Error(`the read models did not reach ${event.type} ${event.id} in ${READ_MODEL_WAIT_MS} ms`)
  }
  const context = causedBy(event)
  const results: ClassifyResult[] = []
  for (const pageId of work.pageIds) {
    signal.throwIfAborted()
    results.push(await classifyPage(classifier, context, pageId, work.options, signal))
  }
  return results
}

/**
 * The intent classifier: a process manager on the log (its own checkpoint, so a read-model rebuild never
 * classifies anything again) that classifies pages one at a time as their content arrives and as
 * classify_page_intents asks. One page at a time bounds the language model's load to one call in flight;
 * each page's record on its own stream makes a redelivered event record nothing twice. A stop aborts a
 * model call or a backoff in hand; the event is handled again from the checkpoint on the next start.
 */
export function intentProcessors(deps: ProcessorDeps): Processor[] {
  const classifier: IntentClassifierDeps = {
    write: deps.write,
    read: deps.read,
    languageModel: deps.languageModel,
    retry: { maxAttempts: deps.search.maxAttempts, backoffBaseMs: deps.search.backoffBaseMs },
    log: deps.log.child({ processor: INTENT_CLASSIFIER_NAME }),
  }
  let controller = new AbortController()
  const subscription = subscriptionProcessor({
    name: INTENT_CLASSIFIER_NAME,
    store: deps.store,
    db: deps.db,
    log: deps.log,
    types: new Set(['PageAdded', 'PageUpdated', 'PageSnapshotRecorded', 'PageIntentsRequested']),
    handle: async (event) => {
      await handleIntentEvent(classifier, deps.watermark, event, controller.signal)
    },
  })
  return [
    {
      name: INTENT_CLASSIFIER_NAME,
      start() {
        if (controller.signal.aborted) controller = new AbortController()
        subscription.start()
      },
      async stop() {
        controller.abort()
        await subscription.stop()
      },
    },
  ]
}
