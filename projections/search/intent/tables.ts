import type { ColumnType } from 'kysely'
import type { IntentSignalValue, PageIntentValue } from '../../../domain/search/intent/events.js'

/** The intent read models as kysely sees them (DDL in migrations/read-models/search-intent.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

export type IntentSource = 'override' | 'rules' | 'model'

/** One row per page: its current content and the intent to use for it. */
export interface PageIntentsTable {
  page_id: number
  client_id: number
  org_id: number
  /** The hash of the page's current content (newest snapshot, or its title alone before one). */
  content_sha256: string
  /** The newest snapshot (null: none yet). */
  snapshot_id: number | null
  /** The intent to use: the override, else the classification below; null when neither exists. */
  intent: PageIntentValue | null
  source: IntentSource | null
  /** The classification of the current content, else the page's newest earlier one (up_to_date false). */
  classified_intent: PageIntentValue | null
  classifier: 'rules' | 'model' | null
  confidence: number | null
  classified_sha256: string | null
  /** Whether the page's current content has been classified. */
  up_to_date: boolean
  override_intent: PageIntentValue | null
  override_note: string | null
  override_at: Timestamp | null
  updated_at: Timestamp
}

/** One row per page × content hash: the cache. */
export interface PageIntentCacheTable {
  page_id: number
  content_sha256: string
  client_id: number
  org_id: number
  snapshot_id: number | null
  intent: PageIntentValue
  confidence: number
  signals: Json<IntentSignalValue[]>
  classifier: 'rules' | 'model'
  model: string | null
  fallback_reason: string | null
  request_id: string | null
  /** The classification's revision on its page's intent stream: the newest is the highest. */
  revision: number
  classified_at: Timestamp
}

export interface IntentReadModels {
  page_intents: PageIntentsTable
  page_intent_cache: PageIntentCacheTable
}
