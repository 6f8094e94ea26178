import { z } from 'zod'
import { KeywordIntent } from '../../keywords/events.js'
import { Id } from '../../shared/values.js'

/**
 * A page's search intent: the same five classes as a keyword's (domain/keywords/events.ts), so a keyword and
 * the page that serves it can be compared class for class.
 */
export const PageIntent = KeywordIntent
export type PageIntentValue = z.infer<typeof PageIntent>
export const PAGE_INTENTS = PageIntent.options

/**
 * sha256 (hex) of what the classifier reads of a page (commands/search/intent/content-hash.ts). Its fields are
 * named `…_sha256`, not `…_hash`: exports and replays keep out every field named like a credential's hash
 * (domain/exports/secret-columns.ts), and this one is a digest of public page content that both must carry.
 */
export const ContentHash = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex')

/** Where a signal was seen: the URL path, the title, a heading, the body text, the client's record, or the model's reasons. */
export const IntentSignalSource = z.enum(['url', 'title', 'heading', 'text', 'client', 'model'])

export const MAX_SIGNALS = 20
export const MAX_SIGNAL_DETAIL = 300
export const MAX_FALLBACK_REASON = 1000
export const MAX_OVERRIDE_NOTE = 500
/** The most pages one PageIntentsRequested lists; a larger site's request is recorded in parts under one request id. */
export const MAX_REQUESTED_PAGES = 5000

/** One piece of evidence for an intent, with how much it counted (the rules' weight; 1 for each of a model's reasons). */
export const IntentSignal = z.object({
  intent: PageIntent,
  source: IntentSignalSource,
  detail: z.string().max(MAX_SIGNAL_DETAIL),
  weight: z.number().min(0).max(100),
})
export type IntentSignalValue = z.infer<typeof IntentSignal>

export const IntentClassifier = z.enum(['rules', 'model'])

/** A classify_page_intents request's id (a UUID the command draws), so each page answers it at most once. */
export const RequestId = z.string().min(1).max(100)

/**
 * A page's content (identified by its hash) classified, on the page's intent stream `page_intent-<page_id>`.
 * `classifier` says who answered: the language model, or the deterministic rules. `model` names the model
 * that answered or was tried; `fallback_reason` is set when a model was tried and the rules answered instead
 * (a provider error, an unreadable answer). `request_id`: the classify_page_intents request it answers,
 * null when new content was classified as it arrived.
 */
export const PageIntentClassified = z.object({
  page_id: Id,
  client_id: Id,
  content_sha256: ContentHash,
  /** The snapshot whose content was read; null for a page without one (URL and title only). */
  snapshot_id: Id.nullable(),
  intent: PageIntent,
  confidence: z.number().min(0).max(1),
  signals: z.array(IntentSignal).max(MAX_SIGNALS),
  classifier: IntentClassifier,
  model: z.string().max(200).nullable(),
  fallback_reason: z.string().max(MAX_FALLBACK_REASON).nullable(),
  request_id: RequestId.nullable(),
})

/** set_page_intent: a person decided the page's intent; it stands until they clear it, whatever the content becomes. */
export const PageIntentOverridden = z.object({
  page_id: Id,
  client_id: Id,
  intent: PageIntent,
  note: z.string().max(MAX_OVERRIDE_NOTE),
})

/** set_page_intent with intent null: the classification of the current content is the page's intent again. */
export const PageIntentOverrideCleared = z.object({ page_id: Id, client_id: Id })

/**
 * classify_page_intents: the client's pages to classify now, on `page_intent_requests-<client_id>`. Without
 * `force`, pages whose current content has a classification are left alone (unless the rules answered for a
 * model that failed, and a model is configured); with it, every listed page is classified again.
 */
export const PageIntentsRequested = z.object({
  request_id: RequestId,
  client_id: Id,
  page_ids: z.array(Id).max(MAX_REQUESTED_PAGES),
  force: z.boolean(),
})

export const intentEventSchemas = {
  PageIntentClassified,
  PageIntentOverridden,
  PageIntentOverrideCleared,
  PageIntentsRequested,
} as const

type Schemas = typeof intentEventSchemas
export type IntentEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type PageIntentEvent = Exclude<IntentEvent, { type: 'PageIntentsRequested' }>
export type PageIntentClassifiedData = z.infer<typeof PageIntentClassified>
