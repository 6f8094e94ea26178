import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * Site changes: what differs between two recorded states of a page (domain/monitoring/page-state.ts), one
 * event per change, on the page's stream `page-<page_id>` in the same append as the snapshot that shows it
 * (commands/monitoring/snapshots.ts, recordCrawledPages). See README.md beside this file.
 */

export const SiteChangeKind = z.enum([
  /** The first state recorded for the page. */
  'page_added',
  /** Now 404/410, or now redirecting elsewhere where it answered 200 itself. */
  'page_gone',
  'status_changed',
  'redirect_changed',
  'title_changed',
  'meta_description_changed',
  'canonical_changed',
  'robots_changed',
  'headings_changed',
  /** The main text changed by at least BODY_CHANGE_MIN_WORDS words (added + removed). */
  'body_changed',
])
export type SiteChangeKind = z.infer<typeof SiteChangeKind>

/** high: a page gone, noindex added, a title lost; medium and low: see severity.ts. */
export const SiteChangeSeverity = z.enum(['high', 'medium', 'low'])
export type SiteChangeSeverity = z.infer<typeof SiteChangeSeverity>

/** Who made the change: an edit this service applied, somebody else, or nobody can tell (a first observation). */
export const SiteChangeAttribution = z.enum(['site_edit', 'external', 'unknown'])
export type SiteChangeAttribution = z.infer<typeof SiteChangeAttribution>

/** The longest `before`/`after` a change carries: enough to read, small enough for every event and webhook. */
export const MAX_CHANGE_VALUE = 500

export const SiteChangeDetected = z.object({
  change_id: Id,
  client_id: Id,
  page_id: Id,
  /** The URL crawled (the page's state `url`). */
  url: z.string().max(2000),
  kind: SiteChangeKind,
  severity: SiteChangeSeverity,
  /** The value before, cut at MAX_CHANGE_VALUE; null when there was none (a page added, a title that was absent). */
  before: z.string().max(MAX_CHANGE_VALUE).nullable(),
  after: z.string().max(MAX_CHANGE_VALUE).nullable(),
  /** body_changed: words added + words removed of the main text; null for other kinds. */
  words_changed: z.number().int().min(0).nullable(),
  attribution: SiteChangeAttribution,
  /** The site edit it matches (attribution site_edit); null otherwise. */
  edit_id: Id.nullable(),
  /** The snapshot that shows the change. */
  snapshot_id: Id,
  /** The snapshot it is compared with; null for page_added. */
  previous_snapshot_id: Id.nullable(),
})
export type SiteChangeDetectedData = z.infer<typeof SiteChangeDetected>

export const siteChangesEventSchemas = { SiteChangeDetected } as const
type Schemas = typeof siteChangesEventSchemas
export type SiteChangeEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
