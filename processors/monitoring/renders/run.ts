import { createHash, randomUUID } from 'node:crypto'
import { access } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import type { CommandContext } from '../../../commands/command-handler.js'
import { recordCrawledPages } from '../../../commands/monitoring/snapshots.js'
import { loadScanRenders, recordRender } from '../../../commands/monitoring/renders.js'
import type { PageRendered, RenderFile, RenderScreenshot } from '../../../domain/monitoring/renders/events.js'
import { renderIdOf, renderPlan, type RecordedRender } from '../../../domain/monitoring/renders/scan-renders.js'
import { pageUrlKey } from '../../../domain/pages/url.js'
import { DomainError } from '../../../domain/shared/errors.js'
import type { ProcessorDeps } from '../../runtime.js'
import { extractPageState } from '../scans/crawler/extract.js'
import { launchRenderBrowser, pngSize } from './browser.js'
import { renderPage, type FailedRender, type RenderedPage } from './render-page.js'

/** What a render scan uses of the processors' dependencies. */
export type RenderDeps = Pick<ProcessorDeps, 'write' | 'blobs' | 'monitoring'>

/** One render scan as the scan runner (processors/monitoring/scans) hands it over. */
export interface RenderScan {
  readonly scanId: number
  readonly orgId: number
  readonly clientId: number
  /** The client's website URL: its home page is rendered first. */
  readonly websiteUrl: string
  /** The client's active page URLs; with the home page, at most `renderMaxPages` are rendered. */
  readonly urls: readonly string[]
  /** URLs the runner already recorded for this scan (a resumed scan): neither rendered nor reported again. */
  readonly done?: ReadonlySet<string>
}

/** What became of one URL of a render scan, after its PageRendered (and snapshot, when changed) is recorded. */
export interface RenderPageOutcome {
  readonly url: string
  readonly pageId: number | null
  /** The HTTP status of the page's main document; null when the render failed before one came. */
  readonly status: number | null
  /** recorded: a new snapshot; unchanged: same content hash as the last rendered one; failed: see code. */
  readonly outcome: 'recorded' | 'unchanged' | 'failed'
  readonly code: string | null
  readonly message: string | null
}

/**
 * Renders a client's pages in headless Chromium and records each: the rendered HTML and a full-page PNG as
 * files (blob store, the client's organization), the snapshot through recordCrawledPages (source 'render',
 * only when the rendered content changed), then PageRendered on the scan's render stream. `onPage` is called
 * after each URL is recorded, so the scan's progress is visible. A resumed scan renders only the URLs its
 * render stream does not hold, and reports those the runner missed (`done`). Throws DomainError
 * `render_unavailable` when Chromium is not there (chromiumPath null, missing, or not starting); stops
 * between pages when `signal` aborts. A page that fails to render is a failed outcome, never a throw.
 */
export async function runRenderScan(
  deps: RenderDeps,
  scan: RenderScan,
  signal: AbortSignal,
  onPage: (result: RenderPageOutcome) => Promise<void>,
): Promise<{ rendered: number; failed: number }> {
  const chromiumPath = await requireChromium(deps.monitoring.chromiumPath)
  const context: CommandContext = {
    actor: { kind: 'system', id: 'render-scan-runner' },
    requestId: null,
    correlationId: randomUUID(),
    causationId: null,
  }
  const counts = { rendered: 0, failed: 0 }
  const count = (outcome: RenderPageOutcome) => {
    if (outcome.outcome === 'failed') counts.failed++
    else counts.rendered++
  }
  const doneKeys = new Set([...(scan.done ?? [])].map(pageUrlKey))
  const before = await loadScanRenders(deps.write, scan.scanId)
  const todo: string[] = []
  for (const url of renderPlan(scan.websiteUrl, scan.urls, deps.monitoring.renderMaxPages)) {
    const key = pageUrlKey(url)
    const recorded = before.rendered.get(key)
    if (recorded === undefined) todo.push(url)
    else {
      // Recorded here but not by the runner (it stopped between the two): report it, do not render it again.
      const outcome = outcomeOfRecorded(recorded)
      count(outcome)
      if (!doneKeys.has(key)) await onPage(outcome)
    }
  }
  if (todo.length === 0 || signal.aborted) return counts
  const browser = await launchRenderBrowser(chromiumPath)
  try {
    for (const url of todo) {
      if (signal.aborted) break
      const outcome = await renderAndRecord(deps, context, browser, scan, url, signal)
      count(outcome)
      await onPage(outcome)
    }
  } finally {
    await browser.close().catch(() => {})
  }
  return counts
}

/** Chromium is optional: without it only render scans fail, with a code that says what to set. */
export async function requireChromium(path: string | null): Promise<string> {
  const missing = () =>
    new DomainError('render_unavailable', `headless Chromium not found at ${path || '(CHROMIUM_PATH unset)'}; set CHROMIUM_PATH`)
  if (path === null || path === '') throw missing()
  try {
    await access(path)
  } catch {
    throw missing()
  }
  return path
}

async function renderAndRecord(
  deps: RenderDeps,
  context: CommandContext,
  browser: Browser,
  scan: RenderScan,
  url: string,
  signal: AbortSignal,
): Promise<RenderPageOutcome> {
  const urlHash = createHash('sha256').update(pageUrlKey(url)).digest('hex').slice(0, 16)
  const renderId = renderIdOf(scan.scanId, urlHash)
  const result = await renderPage(browser, deps.monitoring, url, signal)
  const renderedAt = new Date(deps.write.clock()).toISOString()
  const event = result.kind === 'rendered' ? await recordRendered(deps, context, scan, url, urlHash, result) : null
  const data: PageRendered = {
    render_id: renderId,
    scan_id: scan.scanId,
    client_id: scan.clientId,
    page_url: url.slice(0, 2000),
    rendered_at: renderedAt,
    requests_blocked: result.blockedCount,
    blocked_urls: [...result.blockedUrls],
    ...(event ?? failedFields(result as FailedRender)),
  }
  await recordRender(deps.write, context, { orgId: scan.orgId, render: data })
  return outcomeOfRecorded({
    renderId,
    url: data.page_url,
    pageId: data.page_id,
    status: data.status,
    snapshotId: data.snapshot_id,
    error: data.error,
  })
}

type RenderFields = Pick<
  PageRendered,
  'page_id' | 'final_url' | 'status' | 'html' | 'screenshot' | 'html_truncated' | 'content_hash' | 'snapshot_id' | 'error'
>

function failedFields(result: FailedRender): RenderFields {
  return {
    page_id: null,
    final_url: null,
    status: null,
    html: null,
    screenshot: null,
    html_truncated: false,
    content_hash: null,
    snapshot_id: null,
    error: result.error,
  }
}

/** Stores the two files, extracts the page state from the rendered DOM and records the snapshot when it changed. */
async function recordRendered(
  deps: RenderDeps,
  context: CommandContext,
  scan: RenderScan,
  url: string,
  urlHash: string,
  result: RenderedPage,
): Promise<RenderFields> {
  // One path per scan and URL: a retried render replaces its own files, never another render's.
  const base = `renders/${scan.orgId}/${scan.clientId}/${scan.scanId}/${urlHash}`
  const htmlInfo = await deps.blobs.put(`${base}.html`, result.html, { orgId: scan.orgId, contentType: 'text/html; charset=utf-8' })
  const pngInfo = await deps.blobs.put(`${base}.png`, result.screenshot, { orgId: scan.orgId, contentType: 'image/png' })
  const size = pngSize(result.screenshot) ?? { width: 0, height: 0 }
  const state = extractPageState(url, result.finalUrl, result.status, result.headers, result.html, {
    redirects: result.redirects,
    truncated: result.htmlTruncated,
  })
  const recorded = await recordCrawledPages(deps.write, context, {
    orgId: scan.orgId,
    clientId: scan.clientId,
    scanId: scan.scanId,
    source: 'render',
    pages: [{ url, state }],
  })
  const page = recorded.results[0]!
  const html: RenderFile = { path: htmlInfo.path, bytes: htmlInfo.bytes, sha256: htmlInfo.sha256 }
  const screenshot: RenderScreenshot = { path: pngInfo.path, bytes: pngInfo.bytes, sha256: pngInfo.sha256, ...size }
  return {
    page_id: page.pageId,
    final_url: state.final_url,
    status: result.status,
    html,
    screenshot,
    html_truncated: result.htmlTruncated,
    content_hash: state.content_hash,
    snapshot_id: page.snapshotId,
    error: null,
  }
}

function outcomeOfRecorded(render: RecordedRender): RenderPageOutcome {
  return {
    url: render.url,
    pageId: render.pageId,
    status: render.status,
    outcome: render.error !== null ? 'failed' : render.snapshotId !== null ? 'recorded' : 'unchanged',
    code: render.error?.code ?? null,
    message: render.error?.message ?? null,
  }
}
