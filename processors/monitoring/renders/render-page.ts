import type { Browser, errors, Response } from 'playwright-core'
import type { RenderError } from '../../../domain/monitoring/renders/events.js'
import { MAX_REDIRECT_HOPS } from '../../../domain/monitoring/page-state.js'
import { RequestGuard, type GuardSettings } from './request-guard.js'

/** The viewport a page is rendered in: a common desktop width. */
export const RENDER_VIEWPORT = { width: 1280, height: 800 } as const
/** A full-page screenshot is cut at this height (a page that grows forever must not make a PNG that does). */
export const MAX_SCREENSHOT_HEIGHT = 12_000

export interface RenderedPage {
  readonly kind: 'rendered'
  readonly finalUrl: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly redirects: readonly { url: string; status: number }[]
  /** page.content(): the DOM after the scripts ran, serialised. */
  readonly html: string
  readonly htmlTruncated: boolean
  readonly screenshot: Buffer
  readonly blockedCount: number
  readonly blockedUrls: readonly string[]
}

export interface FailedRender {
  readonly kind: 'failed'
  readonly error: RenderError
  readonly blockedCount: number
  readonly blockedUrls: readonly string[]
}

/**
 * Renders one URL in a fresh browser context (no cookies or storage shared between pages or clients): loads
 * it, waits for the network to settle, and takes the DOM and a full-page PNG, all within `timeoutMs` (the
 * wait for the network to settle is cut at the deadline, and what is there is rendered). Never throws for
 * anything the page does; a failure is a FailedRender with a code.
 */
export async function renderPage(
  browser: Browser,
  settings: GuardSettings & { readonly timeoutMs: number },
  url: string,
  signal: AbortSignal,
): Promise<RenderedPage | FailedRender> {
  // playwright-core is imported where a render runs (browser.ts launched it already), not with the app.
  const { errors } = await import('playwright-core')
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)])
  const started = performance.now()
  const remaining = () => Math.max(1, settings.timeoutMs - (performance.now() - started))
  const guard = new RequestGuard(settings, deadline)
  const context = await browser.newContext({
    viewport: RENDER_VIEWPORT,
    userAgent: settings.userAgent,
    serviceWorkers: 'block',
    acceptDownloads: false,
  })
  const failed = (error: RenderError): FailedRender => ({
    kind: 'failed',
    error,
    blockedCount: guard.blockedCount,
    blockedUrls: [...guard.blockedUrls],
  })
  try {
    await context.route('**/*', (route) => guard.handle(route))
    const page = await context.newPage()
    let response: Response | null
    try {
      response = await page.goto(url, { waitUntil: 'load', timeout: remaining() })
    } catch (error) {
      return failed(navigationError(error, guard, errors.TimeoutError))
    }
    if (response === null) return failed({ code: 'render_failed', message: 'the navigation produced no document' })
    // The network settling is best effort: a page that polls forever is rendered as it is at the deadline.
    await page.waitForLoadState('networkidle', { timeout: remaining() }).catch(() => {})
    const html = await page.content()
    const height = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0))
    const screenshot = await page.screenshot({
      type: 'png',
      fullPage: true,
      clip: { x: 0, y: 0, width: RENDER_VIEWPORT.width, height: Math.min(Math.max(height, 1), MAX_SCREENSHOT_HEIGHT) },
      timeout: remaining(),
    })
    return {
      kind: 'rendered',
      finalUrl: page.url(),
      status: response.status(),
      headers: await response.allHeaders(),
      redirects: await redirectsOf(response),
      html,
      htmlTruncated: guard.documentTruncated,
      screenshot,
      blockedCount: guard.blockedCount,
      blockedUrls: [...guard.blockedUrls],
    }
  } catch (error) {
    if (error instanceof errors.TimeoutError || deadline.aborted)
      return failed({ code: 'timeout', message: `the page did not render within ${settings.timeoutMs} ms` })
    return failed({ code: 'render_failed', message: String((error as Error).message ?? error).slice(0, 1000) })
  } finally {
    await context.close().catch(() => {})
    await guard.close()
  }
}

/** Each redirect hop Chromium followed to the final document, in order. */
async function redirectsOf(response: Response): Promise<{ url: string; status: number }[]> {
  const hops: { url: string; status: number }[] = []
  let previous = response.request().redirectedFrom()
  while (previous !== null && hops.length < MAX_REDIRECT_HOPS) {
    hops.unshift({ url: previous.url(), status: (await previous.response())?.status() ?? 0 })
    previous = previous.redirectedFrom()
  }
  return hops
}

function navigationError(error: unknown, guard: RequestGuard, timeoutError: typeof errors.TimeoutError): RenderError {
  if (guard.documentRefusal !== null) {
    const code = guard.documentRefusal.kind === 'address_refused' ? 'address_refused' : 'connection_failed'
    return { code, message: guard.documentRefusal.message.slice(0, 1000) }
  }
  const message = String((error as Error).message ?? error).slice(0, 1000)
  if (error instanceof timeoutError) return { code: 'timeout', message }
  if (/net::ERR_/.test(message)) return { code: 'connection_failed', message }
  return { code: 'render_failed', message }
}
