import { z } from 'zod'
import { closeScanSession, queueSiteScan, setScanCadence } from '../../../commands/monitoring/scans.js'
import { ScanErrorCode, ScanFrequency, ScanType } from '../../../domain/monitoring/scans/events.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  lastScanOfClient,
  scanCadenceOf,
  scanSessionView,
  scansOfClient,
  visibleScan,
} from '../../../projections/monitoring/scans/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'monitoring'

const SessionId = Id.describe('The scan session (an integer id, as start_site_scan or get_last_scan_session answered)')
const ScanTypeParam = ScanType.describe(
  'crawl (the service crawls the site), render (the service renders pages in headless Chromium), or any other short name ' +
    '(keywords, audit, …): a session an agent runs itself and closes with complete_scan_session',
)

const SessionSchema = z
  .object({
    session_id: SessionId,
    client_id: ClientId,
    scan_type: z.string().describe('crawl, render, or the agent’s own scan type'),
    trigger: z.enum(['manual', 'cadence']).describe('manual: start_site_scan; cadence: queued by set_scan_cadence’s schedule'),
    status: z
      .enum(['queued', 'running', 'completed', 'failed', 'cancelled'])
      .describe('queued → running → completed, failed (error says why) or cancelled. An agent’s session is running from its start'),
    progress: z
      .object({
        pages_found: z.number().int().describe('URLs with a result so far (every outcome)'),
        pages_fetched: z.number().int().describe('Pages fetched (recorded, unchanged or not modified)'),
        pages_recorded: z.number().int().describe('Pages whose content changed: a new snapshot each'),
        pages_unchanged: z.number().int().describe('Pages fetched whose content hash equals their last snapshot’s (or a 304): no snapshot'),
        pages_skipped: z.number().int().describe('URLs not fetched: disallowed by robots.txt, beyond the page cap, or not HTML'),
        pages_failed: z
          .number()
          .int()
          .describe('URLs that could not be fetched: refused address, timeout, too many redirects, connection failed'),
        sitemaps_read: z.number().int().describe('Sitemaps (and sitemap indexes) read'),
      })
      .describe('Progress of the service’s scan, updated after every batch of pages (zeros for an agent’s session)'),
    keywords_checked: z.number().int().describe('complete_scan_session’s figure (agents’ sessions)'),
    pages_scanned: z.number().int().describe('complete_scan_session’s figure (agents’ sessions)'),
    attempt: z.number().int().describe('Times a worker took the scan: more than 1 after a worker stopped mid-scan and another resumed it'),
    start_url: z.string().nullable().describe('The website URL the crawl started from; null before a worker took it'),
    error: z
      .object({
        code: ScanErrorCode.describe(
          'crawl_failed, render_unavailable (no Chromium), render_failed, website_url_invalid, scan_interrupted, client_deleted, closed_by_caller',
        ),
        message: z.string().describe('What happened'),
      })
      .nullable()
      .describe('Why it failed; null unless status is failed'),
    queued_at: z.string().describe('When it was started or queued (ISO 8601)'),
    started_at: z.string().nullable().describe('When a worker first took it (an agent’s session: when it was started)'),
    finished_at: z.string().nullable().describe('When it completed, failed or was cancelled'),
  })
  .describe('A scan session')

const exampleSession = {
  session_id: 41,
  client_id: 34,
  scan_type: 'crawl',
  trigger: 'manual' as const,
  status: 'completed' as const,
  progress: {
    pages_found: 128,
    pages_fetched: 120,
    pages_recorded: 7,
    pages_unchanged: 113,
    pages_skipped: 6,
    pages_failed: 2,
    sitemaps_read: 3,
  },
  keywords_checked: 0,
  pages_scanned: 0,
  attempt: 1,
  start_url: 'https://www.acmeplumbing.example/',
  error: null,
  queued_at: '2026-11-27T09:00:00.000Z',
  started_at: '2026-11-27T09:00:01.000Z',
  finished_at: '2026-11-27T09:02:10.000Z',
}

const zeroProgress = {
  pages_found: 0,
  pages_fetched: 0,
  pages_recorded: 0,
  pages_unchanged: 0,
  pages_skipped: 0,
  pages_failed: 0,
  sitemaps_read: 0,
}

const CadenceSchema = z
  .object({
    client_id: ClientId,
    frequency: ScanFrequency.describe('daily: a scan each UTC day; weekly: one when 7 days have passed since the last; off: none'),
    scan_type: z.string().describe('The scan type queued (crawl or render)'),
    updated_at: z.string().nullable().describe('When it was last set (ISO 8601); null: never set (off shown)'),
  })
  .describe("A client's scan cadence")

export const scansRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'start_site_scan',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Start a scan of the client’s site. crawl (default): the service crawls the site from its website URL (robots.txt, sitemaps, ' +
      'internal links; within the page cap) and records a snapshot of each page whose content changed; render: the same pages ' +
      'rendered in headless Chromium; any other scan_type opens a session an agent runs itself and closes with complete_scan_session. ' +
      'One open scan per client and scan type: while one is queued or running it is returned (created false). A client in cooldown ' +
      'answers 409 client_in_cooldown with the reason and until.',
    example: {
      params: { client_id: 34, scan_type: 'crawl' },
      result: {
        ...exampleSession,
        status: 'queued',
        progress: zeroProgress,
        start_url: null,
        attempt: 0,
        started_at: null,
        finished_at: null,
        created: true,
      },
    },
    params: z.strictObject({ client_id: ClientId, scan_type: ScanTypeParam.optional() }),
    result: SessionSchema.extend({ created: z.boolean().describe('true: opened by this call; false: the scan of that type already open') }),
    async handler(ctx) {
      const queued = await queueSiteScan(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: ctx.params.client_id,
        scanType: ctx.params.scan_type ?? 'crawl',
        trigger: 'manual',
      })
      await ctx.settle()
      // A manual start always has an open scan to show (opened now or already open).
      return { ...scanSessionView(await visibleScan(ctx.read, ctx.orgId, queued!.scanId)), created: queued!.created }
    },
  }),
  rpc({
    name: 'complete_scan_session',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Close a scan session: status completed (default), failed or cancelled, with the agent’s figures keywords_checked and ' +
      'pages_scanned. The service’s own crawl and render scans may be closed this way too (cancelled: the worker stops between ' +
      'pages). Closing a closed session answers 409 scan_session_closed. Returns the session.',
    example: {
      params: { session_id: 42, keywords_checked: 25, pages_scanned: 10, status: 'completed' },
      result: {
        ...exampleSession,
        session_id: 42,
        scan_type: 'keywords',
        progress: zeroProgress,
        keywords_checked: 25,
        pages_scanned: 10,
        start_url: null,
        attempt: 0,
      },
    },
    params: z.strictObject({
      session_id: SessionId,
      keywords_checked: z.number().int().min(0).max(1_000_000).optional().describe('Keywords the agent checked (default 0)'),
      pages_scanned: z.number().int().min(0).max(1_000_000).optional().describe('Pages the agent scanned (default 0)'),
      status: z
        .enum(['completed', 'failed', 'cancelled'])
        .optional()
        .describe('completed (default), failed (error closed_by_caller) or cancelled'),
    }),
    result: SessionSchema,
    async handler(ctx) {
      const p = ctx.params
      const scan = await visibleScan(ctx.read, ctx.orgId, p.session_id)
      await closeScanSession(
        ctx.write,
        ctx.command,
        { scanId: scan.id, clientId: scan.client_id, orgId: scan.org_id },
        { status: p.status ?? 'completed', keywordsChecked: p.keywords_checked ?? 0, pagesScanned: p.pages_scanned ?? 0 },
      )
      await ctx.settle()
      return scanSessionView(await visibleScan(ctx.read, ctx.orgId, scan.id))
    },
  }),
  rpc({
    name: 'get_last_scan_session',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The client’s newest scan session (of scan_type when given), whatever its status, with its progress while it runs ' +
      '(pages found, fetched, recorded, unchanged, skipped, failed; sitemaps read) and error {code, message} when it failed; null when none.',
    example: { params: { client_id: 34, scan_type: 'crawl' }, result: exampleSession },
    params: z.strictObject({ client_id: ClientId, scan_type: ScanTypeParam.optional() }),
    result: SessionSchema.nullable(),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const row = await lastScanOfClient(ctx.read, client.id, ctx.params.scan_type ?? null)
      return row ? scanSessionView(row) : null
    },
  }),
  rpc({
    name: 'get_scan_session',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One scan session: status, progress, figures and error.',
    example: { params: { session_id: 41 }, result: exampleSession },
    params: z.strictObject({ session_id: SessionId }),
    result: SessionSchema,
    handler: async (ctx) => scanSessionView(await visibleScan(ctx.read, ctx.orgId, ctx.params.session_id)),
  }),
  rpc({
    name: 'list_scan_sessions',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The client’s scan sessions of every type, newest first.',
    example: { params: { client_id: 34 }, result: [exampleSession] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(SessionSchema),
    paginated: { maxLimit: 100, defaultLimit: 20 },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return (await scansOfClient(ctx.read, client.id, ctx.page!)).map(scanSessionView)
    },
  }),
  rpc({
    name: 'set_scan_cadence',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Schedule scans of the client: frequency daily (one each UTC day), weekly (one when 7 days have passed since the last scan of ' +
      'that type) or off; scan_type crawl (default) or render. A scheduled scan of a client in cooldown waits until it ends. Returns the cadence.',
    example: {
      params: { client_id: 34, frequency: 'weekly', scan_type: 'crawl' },
      result: { client_id: 34, frequency: 'weekly', scan_type: 'crawl', updated_at: '2026-11-27T09:00:00.000Z' },
    },
    params: z.strictObject({
      client_id: ClientId,
      frequency: ScanFrequency.describe('daily, weekly, or off to stop scheduled scans'),
      scan_type: z.enum(['crawl', 'render']).optional().describe('crawl (default) or render'),
    }),
    result: CadenceSchema,
    async handler(ctx) {
      const p = ctx.params
      await setScanCadence(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        frequency: p.frequency,
        scanType: p.scan_type ?? 'crawl',
      })
      await ctx.settle()
      return scanCadenceOf(ctx.read, p.client_id)
    },
  }),
  rpc({
    name: 'get_scan_cadence',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's scan cadence; frequency off (updated_at null) when never set.",
    example: {
      params: { client_id: 34 },
      result: { client_id: 34, frequency: 'daily', scan_type: 'crawl', updated_at: '2026-11-20T09:00:00.000Z' },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: CadenceSchema,
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return scanCadenceOf(ctx.read, client.id)
    },
  }),
]
