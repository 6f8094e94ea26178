import { randomUUID } from 'node:crypto'
import {
  MAX_REQUESTED_PAGES,
  type IntentEvent,
  type PageIntentClassifiedData,
  type PageIntentValue,
} from '../../../domain/search/intent/events.js'
import { pageIntent, type PageIntentState } from '../../../domain/search/intent/page-intent.js'
import { appendAudit } from '../../append.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { EventStore, Position } from '../../event-store/port.js'

/** The page's intent record as its stream holds it (what has been classified, which requests answered, the override). */
export function loadPageIntent(store: EventStore, pageId: number): Promise<PageIntentState> {
  return loadState(store, pageIntent, pageId)
}

/**
 * Records a classification on the page's intent stream. Nothing is recorded when it repeats one the page
 * has (the same content hash without a request, or a request already answered), so a redelivered event or
 * request never leaves a second record. The caller has checked the page (the org id comes from it).
 */
export async function recordIntentClassification(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; classification: PageIntentClassifiedData },
): Promise<{ recorded: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: pageIntent,
    id: input.classification.page_id,
    command: { type: 'RecordClassification', classification: input.classification },
    context,
    orgId: input.orgId,
  })
  return { recorded: outcome.events.length > 0, position: outcome.position }
}

/** set_page_intent: a person's intent for the page, or null to clear it. */
export async function setPageIntent(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; clientId: number; pageId: number; intent: PageIntentValue | null; note: string },
): Promise<{ changed: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: pageIntent,
    id: input.pageId,
    command: { type: 'SetOverride', page_id: input.pageId, client_id: input.clientId, intent: input.intent, note: input.note },
    context,
    orgId: input.orgId,
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}

export const intentRequestStream = (clientId: number) => `page_intent_requests-${clientId}`

/**
 * classify_page_intents: records the request (a fact that decides nothing, appended without reading the
 * stream); the intent processor answers it page by page. The caller has checked the client and its pages.
 */
export async function requestIntentClassification(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; clientId: number; pageIds: readonly number[]; force: boolean },
): Promise<{ requestId: string; position: Position }> {
  const requestId = randomUUID()
  // A site larger than one event's list is requested in parts, one request id across them.
  const events: IntentEvent[] = []
  for (let at = 0; at < input.pageIds.length || at === 0; at += MAX_REQUESTED_PAGES) {
    const page_ids = input.pageIds.slice(at, at + MAX_REQUESTED_PAGES)
    events.push({ type: 'PageIntentsRequested', data: { request_id: requestId, client_id: input.clientId, page_ids, force: input.force } })
  }
  const position = await appendAudit(deps, intentRequestStream(input.clientId), events, context, input.orgId)
  return { requestId, position }
}
