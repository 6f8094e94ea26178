import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * Scans (issue 25). Two kinds of stream: per client `site_scans-<client_id>` holds the queueing of each scan
 * (so "one open scan per client and scan type" is one decision), and per scan `site_scan-<scan_id>` holds
 * everything that happens to it afterwards (the take by a worker, each batch of pages, the end), so a
 * 10,000-page scan's batches never weigh on the client's stream. A scan whose stream is still empty is queued.
 * Cadences live in `scan_cadence-<client_id>`.
 */

/** A scan type: crawl and render are run by the service; any other short name is a session an agent runs itself. */
export const ScanType = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z][a-z0-9_-]*$/)
export type ScanType = z.infer<typeof ScanType>

export const ScanFrequency = z.enum(['daily', 'weekly', 'off'])
export type ScanFrequency = z.infer<typeof ScanFrequency>

/** The coded reasons a scan fails; what get_scan_session shows in `error.code`. */
export const ScanErrorCode = z.enum([
  /** The crawl engine stopped on an error of its own (never a page's: those are failed pages). */
  'crawl_failed',
  /** Headless Chromium is not available to this service (CHROMIUM_PATH), or the render scan failed. */
  'render_unavailable',
  'render_failed',
  /** The client has no website URL the crawl can start from. */
  'website_url_invalid',
  /** Workers holding the scan stopped (crashed, killed) too many times. */
  'scan_interrupted',
  /** The client was deleted before the scan ran. */
  'client_deleted',
  /** Closed as failed by complete_scan_session. */
  'closed_by_caller',
])
export type ScanErrorCode = z.infer<typeof ScanErrorCode>

export const ScanError = z.object({ code: ScanErrorCode, message: z.string().max(1000) })
export type ScanError = z.infer<typeof ScanError>

/** What happened to one URL in a scan. */
export const PageOutcome = z.enum(['recorded', 'unchanged', 'not_modified', 'skipped', 'failed'])
export type PageOutcome = z.infer<typeof PageOutcome>

export const ScanPageResult = z.object({
  url: z.string().min(1).max(2000),
  page_id: Id.nullable(),
  status: z.number().int().nullable(),
  in_sitemap: z.boolean(),
  /** Clicks from the start URL; null when not known (a page found in a sitemap only, a failed fetch). */
  depth: z.number().int().min(0).nullable(),
  outcome: PageOutcome,
  /** Why skipped (robots, cap, not_html) or failed (address_refused, timeout, …); null otherwise. */
  code: z.string().max(100).nullable(),
})
export type ScanPageResult = z.infer<typeof ScanPageResult>

/** Results one SiteScanPagesRecorded carries at most. */
export const MAX_PAGES_PER_BATCH = 50

/** Totals of a scan (absolute, so a projection sets them). */
export const ScanCounts = z.object({
  pages_found: z.number().int().min(0),
  pages_fetched: z.number().int().min(0),
  pages_recorded: z.number().int().min(0),
  pages_unchanged: z.number().int().min(0),
  pages_skipped: z.number().int().min(0),
  pages_failed: z.number().int().min(0),
  sitemaps_read: z.number().int().min(0),
})
export type ScanCounts = z.infer<typeof ScanCounts>

export const ZERO_COUNTS: ScanCounts = {
  pages_found: 0,
  pages_fetched: 0,
  pages_recorded: 0,
  pages_unchanged: 0,
  pages_skipped: 0,
  pages_failed: 0,
  sitemaps_read: 0,
}

/** set_scan_cadence: which scan the scheduler queues for the client and how often; off queues none. */
export const ScanCadenceSet = z.object({ client_id: Id, frequency: ScanFrequency, scan_type: ScanType })

/** start_site_scan or the cadence queued a scan (in the client's stream). */
export const SiteScanQueued = z.object({
  scan_id: Id,
  client_id: Id,
  scan_type: ScanType,
  trigger: z.enum(['manual', 'cadence']),
  /** The UTC day it was queued: what a cadence is due against. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
})

/** A worker took the scan: the first time, or again after the previous holder's lease ran out (kill -9). */
export const SiteScanStarted = z.object({
  scan_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  worker: z.string().min(1).max(200),
  lease_expires_at: z.string(),
  start_url: z.string().max(2000),
})

/** A batch of page results (also the holder's heartbeat: the lease moves on; an empty batch is only that). */
export const SiteScanPagesRecorded = z.object({
  scan_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  lease_expires_at: z.string(),
  pages: z.array(ScanPageResult).max(MAX_PAGES_PER_BATCH),
  totals: ScanCounts,
})

/** A sitemap was read (or could not be). */
export const SiteScanSitemapRead = z.object({
  scan_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  url: z.string().max(2000),
  urls: z.number().int().min(0),
  truncated: z.boolean(),
  error: z.string().max(500).nullable(),
  totals: ScanCounts,
})

export const SiteScanCompleted = z.object({
  scan_id: Id,
  client_id: Id,
  totals: ScanCounts,
  /** complete_scan_session's figures for an agent's session (0 for the service's scans). */
  keywords_checked: z.number().int().min(0),
  pages_scanned: z.number().int().min(0),
})

export const SiteScanFailed = z.object({ scan_id: Id, client_id: Id, error: ScanError, totals: ScanCounts })

/** complete_scan_session(status: cancelled): the holder stops between pages. */
export const SiteScanCancelled = z.object({ scan_id: Id, client_id: Id, totals: ScanCounts })

export const scansEventSchemas = {
  ScanCadenceSet,
  SiteScanQueued,
  SiteScanStarted,
  SiteScanPagesRecorded,
  SiteScanSitemapRead,
  SiteScanCompleted,
  SiteScanFailed,
  SiteScanCancelled,
} as const

type Schemas = typeof scansEventSchemas
type EventOf<K extends keyof Schemas> = { type: K; data: z.infer<Schemas[K]> }
export type ScanCadenceEvent = EventOf<'ScanCadenceSet'>
export type ClientScansEvent = EventOf<'SiteScanQueued'>
export type SiteScanEvent =
  | EventOf<'SiteScanStarted'>
  | EventOf<'SiteScanPagesRecorded'>
  | EventOf<'SiteScanSitemapRead'>
  | EventOf<'SiteScanCompleted'>
  | EventOf<'SiteScanFailed'>
  | EventOf<'SiteScanCancelled'>
export type ScansEvent = ScanCadenceEvent | ClientScansEvent | SiteScanEvent
