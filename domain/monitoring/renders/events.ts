import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * Render scans (issue 25): each URL a render scan renders in headless Chromium is one PageRendered on the
 * scan's render stream `page_renders-<scan_id>` (see scan-renders.ts). The rendered HTML and the screenshot
 * are files (the blob store, served under /api/v1/files/); the event names them, it never holds them.
 */

/** How many refused request URLs one render names (the count is exact, the list is a sample). */
export const MAX_BLOCKED_LISTED = 20

/** Why one URL's render failed; `null` error: it rendered (whatever the page's HTTP status). */
export const RenderErrorCode = z.enum([
  /** The page's own address is refused by the site policy (private, loopback, link-local, …). */
  'address_refused',
  /** The page did not load within the render deadline (SITE_CRAWL_TIMEOUT_MS). */
  'timeout',
  /** The page could not be reached (DNS, connection, TLS) or its document was cut for size. */
  'connection_failed',
  /** Chromium itself failed on the page (crashed tab, navigation error). */
  'render_failed',
])
export type RenderErrorCode = z.infer<typeof RenderErrorCode>

export const RenderError = z.object({
  code: RenderErrorCode.describe('address_refused | timeout | connection_failed | render_failed'),
  message: z.string().max(1000).describe('What happened, for a person'),
})
export type RenderError = z.infer<typeof RenderError>

export const RenderFile = z.object({
  path: z.string().max(1000).describe('The blob path; served at /api/v1/files/<path> to the client’s organization'),
  bytes: z.number().int().min(0).describe('Its size in bytes'),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe('SHA-256 of the content (the download’s ETag)'),
})
export type RenderFile = z.infer<typeof RenderFile>

export const RenderScreenshot = RenderFile.extend({
  width: z.number().int().min(0).describe('PNG width in pixels'),
  height: z.number().int().min(0).describe('PNG height in pixels (the full page, cut at the render height cap)'),
})
export type RenderScreenshot = z.infer<typeof RenderScreenshot>

/** One URL of a render scan, rendered (or failed) and recorded. */
export const PageRendered = z.object({
  render_id: z.string().regex(/^\d+-[0-9a-f]{16}$/),
  scan_id: Id,
  client_id: Id,
  page_url: z.string().min(1).max(2000),
  /** The page the snapshot went to; null when the render failed before a page state existed. */
  page_id: Id.nullable(),
  final_url: z.string().max(2000).nullable(),
  status: z.number().int().nullable(),
  html: RenderFile.nullable(),
  screenshot: RenderScreenshot.nullable(),
  /** The rendered HTML was larger than SITE_CRAWL_MAX_PAGE_BYTES and is stored cut there. */
  html_truncated: z.boolean(),
  content_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  /** The snapshot recorded from this render; null: unchanged since the last one, or failed. */
  snapshot_id: Id.nullable(),
  /** Requests of the page refused by the site policy or the page's budgets (aborted, never sent). */
  requests_blocked: z.number().int().min(0),
  blocked_urls: z.array(z.string().max(2000)).max(MAX_BLOCKED_LISTED),
  rendered_at: z.string().datetime(),
  error: RenderError.nullable(),
})
export type PageRendered = z.infer<typeof PageRendered>

export const rendersEventSchemas = { PageRendered } as const
type Schemas = typeof rendersEventSchemas
export type RendersEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
