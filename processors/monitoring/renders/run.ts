import { access } from 'node:fs/promises'
import { DomainError } from '../../../domain/shared/errors.js'
import type { ProcessorDeps } from '../../runtime.js'

/** One render scan as the scan runner (processors/monitoring/scans) hands it over. */
export interface RenderScan {
  readonly scanId: number
  readonly orgId: number
  readonly clientId: number
  /** The client's website URL: its home page is rendered first. */
  readonly websiteUrl: string
  /** The client's active page URLs; with the home page, at most `renderMaxPages` are rendered. */
  readonly urls: readonly string[]
  /** URLs this scan already rendered and recorded (a resumed scan): not rendered again. */
  readonly done?: ReadonlySet<string>
}

/** What became of one URL of a render scan, after its PageRendered (and snapshot, when changed) is recorded. */
export interface RenderPageOutcome {
  readonly url: string
  readonly pageId: number | null
  /** The HTTP status of the page's main document; null when the render failed before one came. */
  readonly status: number | null
  /** recorded: a new snapshot; unchanged: same content hash as the last one; failed: see code. */
  readonly outcome: 'recorded' | 'unchanged' | 'failed'
  readonly code: string | null
  readonly message: string | null
}

/**
 * Renders a client's pages in headless Chromium and records each (PageRendered, and the snapshot through
 * recordCrawledPages with source 'render' when the content changed), calling `onPage` after each URL is
 * recorded so the scan's progress is visible. Throws DomainError `render_unavailable` when Chromium is not
 * there (chromiumPath null or missing); stops between pages when `signal` aborts.
 */
export async function runRenderScan(
  deps: ProcessorDeps,
  scan: RenderScan,
  signal: AbortSignal,
  onPage: (result: RenderPageOutcome) => Promise<void>,
): Promise<{ rendered: number; failed: number }> {
  await requireChromium(deps.monitoring.chromiumPath)
  void scan
  void signal
  void onPage
  throw new DomainError('render_unavailable', 'render scans are being built (issue 25)')
}

/** Chromium is optional: without it only render scans fail, with a code that says what to set. */
export async function requireChromium(path: string | null): Promise<string> {
  const missing = () =>
    new DomainError('render_unavailable', `headless Chromium not found at ${path ?? '(CHROMIUM_PATH unset)'}; set CHROMIUM_PATH`)
  if (path === null || path === '') throw missing()
  try {
    await access(path)
  } catch {
    throw missing()
  }
  return path
}
