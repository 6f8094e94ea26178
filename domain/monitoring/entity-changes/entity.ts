/**
 * Which record an event changed, for the auditor's view: a stream of one record (`page-7`, `site_edit-12`)
 * names it; an event in a per-client set stream (`keywords-34`, `seo_insights-34`, …) names it by the first id
 * field of its data in the order below (the record's own id before those it refers to: an insight names a
 * keyword and a page, and is the insight); failing both, the client itself.
 */

/** Streams of one record: their prefix and the entity type they hold. */
const RECORD_STREAMS: readonly (readonly [prefix: string, entity: string])[] = [
  ['page-', 'page'],
  ['page_intent-', 'page'],
  ['site_edit-', 'site_edit'],
  ['site_scan-', 'site_scan'],
  ['job-', 'job'],
  ['aeo_run-', 'aeo_run'],
  ['ad_copy_set-', 'ad_copy_set'],
  ['client-', 'client'],
]

/** Id fields of event data, in the order they name the record, with the entity type each names. */
const ID_FIELDS: readonly (readonly [field: string, entity: string])[] = [
  ['image_id', 'client_image'],
  ['doc_id', 'reference_doc'],
  ['topic_id', 'blog_topic'],
  ['optimization_id', 'meta_optimization'],
  ['insight_id', 'seo_insight'],
  ['change_id', 'site_change'],
  ['render_id', 'page_render'],
  ['survey_id', 'survey'],
  ['set_id', 'ad_copy_set'],
  ['item_id', 'aeo_item'],
  ['item_ids', 'aeo_item'],
  ['canonical_id', 'aeo_query'],
  ['query_id', 'aeo_query'],
  ['capture_id', 'capture'],
  ['check_id', 'rank_check'],
  ['scan_id', 'site_scan'],
  ['edit_id', 'site_edit'],
  ['keyword_id', 'keyword'],
  ['page_id', 'page'],
  ['page_ids', 'page'],
  ['location_id', 'client_location'],
  ['location_ids', 'client_location'],
  ['service_id', 'client_service'],
  ['delivery_id', 'webhook_delivery'],
  ['job_id', 'job'],
  ['run_id', 'aeo_run'],
]

/** The entity ids a list names at most (a deactivation of 500 pages names the first 50). */
export const MAX_ENTITY_IDS = 50

export interface EntityRef {
  readonly entity_type: string
  /** The record's id; null when the event names several (entity_ids). */
  readonly entity_id: number | string | null
  /** The records an event about several names (at most MAX_ENTITY_IDS); null for one. */
  readonly entity_ids: (number | string)[] | null
  /** The data field that named it (null: the stream did, or the client is the record). */
  readonly id_field: string | null
}

const isId = (v: unknown): v is number | string => typeof v === 'number' || typeof v === 'string'

/** The record an event changed. `clientId` is the client whose changes are listed. */
export function entityOf(stream: string, eventType: string, data: Record<string, unknown>, clientId: number): EntityRef {
  for (const [prefix, entity] of RECORD_STREAMS) {
    if (!stream.startsWith(prefix)) continue
    const id = stream.slice(prefix.length)
    if (/^\d+$/.test(id)) return { entity_type: entity, entity_id: Number(id), entity_ids: null, id_field: null }
  }
  for (const [field, entity] of ID_FIELDS) {
    const value = data[field]
    // A Search Console capture and an AI Visibility capture share the field's name, not the record.
    const type = entity === 'capture' ? (eventType.startsWith('Gsc') ? 'gsc_capture' : 'aeo_capture') : entity
    if (isId(value)) return { entity_type: type, entity_id: value, entity_ids: null, id_field: field }
    if (Array.isArray(value) && value.every(isId) && value.length > 0) {
      return { entity_type: type, entity_id: null, entity_ids: value.slice(0, MAX_ENTITY_IDS), id_field: field }
    }
  }
  return { entity_type: 'client', entity_id: clientId, entity_ids: null, id_field: null }
}

/**
 * Streams of one record whose later events no longer name the client (a site edit's apply, a job's start, an
 * AI Visibility run's completion): the first event does, so the client's changes include the rest of the
 * stream's events too.
 */
export const CLIENT_LESS_STREAM_PREFIXES = ['site_edit-', 'job-', 'aeo_run-'] as const
