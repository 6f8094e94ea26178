import type { Aggregate } from '../../shared/aggregate.js'
import { assertNever } from '../../shared/values.js'
import type { PageIntentClassifiedData, PageIntentEvent, PageIntentValue } from './events.js'

/**
 * One page's intent record: stream `page_intent-<page_id>`, apart from the page set and the page's content
 * streams, so classifying never contends with edits to the site. Its invariants are the cache's: one
 * classification per content hash unless a request asks again, a request answered at most once per page (a
 * redelivered request records nothing twice), and a person's override changed only by a person.
 */
export const pageIntentStream = (pageId: number) => `page_intent-${pageId}`

/** Requests remembered per page: far more than can be redelivered while newer ones are served. */
export const REMEMBERED_REQUESTS = 100

export interface CachedClassification {
  readonly intent: PageIntentValue
  readonly classifier: 'rules' | 'model'
  /** The rules answered because the model failed: worth asking the model again. */
  readonly fellBack: boolean
}

export interface PageIntentState {
  readonly clientId: number
  /** Content hash → its latest classification. */
  readonly classified: ReadonlyMap<string, CachedClassification>
  /** The classify_page_intents requests this page has answered, oldest first (the last REMEMBERED_REQUESTS). */
  readonly requests: readonly string[]
  readonly override: { readonly intent: PageIntentValue; readonly note: string } | null
}

export type PageIntentCommand =
  /**
   * Records a classification. With `request_id` (a classify_page_intents request) it is recorded unless that
   * request was already answered for this page; without, unless the content hash is already classified.
   */
  | { type: 'RecordClassification'; classification: PageIntentClassifiedData }
  /** A person's intent for the page (null: clear it). The same intent and note again records nothing. */
  | { type: 'SetOverride'; page_id: number; client_id: number; intent: PageIntentValue | null; note: string }

const initialState = (): PageIntentState => ({ clientId: 0, classified: new Map(), requests: [], override: null })

function evolve(state: PageIntentState, event: PageIntentEvent): PageIntentState {
  switch (event.type) {
    case 'PageIntentClassified': {
      const d = event.data
      const classified = new Map(state.classified)
      classified.set(d.content_sha256, { intent: d.intent, classifier: d.classifier, fellBack: d.fallback_reason !== null })
      const requests = d.request_id === null ? state.requests : [...state.requests, d.request_id].slice(-REMEMBERED_REQUESTS)
      return { ...state, clientId: d.client_id, classified, requests }
    }
    case 'PageIntentOverridden':
      return { ...state, clientId: event.data.client_id, override: { intent: event.data.intent, note: event.data.note } }
    case 'PageIntentOverrideCleared':
      return { ...state, clientId: event.data.client_id, override: null }
    default:
      return assertNever(event)
  }
}

/** Whether recording this classification would repeat one the page already has (see RecordClassification). */
export function alreadyAnswered(state: PageIntentState, classification: { content_sha256: string; request_id: string | null }): boolean {
  return classification.request_id === null
    ? state.classified.has(classification.content_sha256)
    : state.requests.includes(classification.request_id)
}

function decide(command: PageIntentCommand, state: PageIntentState): PageIntentEvent[] {
  switch (command.type) {
    case 'RecordClassification':
      if (alreadyAnswered(state, command.classification)) return []
      return [{ type: 'PageIntentClassified', data: command.classification }]
    case 'SetOverride': {
      const { page_id, client_id, intent, note } = command
      if (intent === null) return state.override === null ? [] : [{ type: 'PageIntentOverrideCleared', data: { page_id, client_id } }]
      if (state.override?.intent === intent && state.override.note === note) return []
      return [{ type: 'PageIntentOverridden', data: { page_id, client_id, intent, note } }]
    }
    default:
      return assertNever(command)
  }
}

export const pageIntent: Aggregate<PageIntentState, PageIntentCommand, PageIntentEvent> = {
  streamOf: pageIntentStream,
  initialState,
  evolve,
  decide,
  entity: 'page',
}
