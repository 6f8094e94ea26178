import { pageUrlKey } from '../../pages/url.js'
import type { Aggregate } from '../../shared/aggregate.js'
import type { PageRendered, RendersEvent } from './events.js'

/**
 * One render scan's renders: stream `page_renders-<scan_id>`, so "each URL is rendered and recorded once per
 * scan" is one decision. A scan resumed after a crash (kill -9) finds here what it already recorded and
 * renders only the rest; recording the same URL again (a retried append) changes nothing.
 */
export const scanRendersStream = (scanId: number) => `page_renders-${scanId}`

/** What a recorded render tells the scan runner about its URL (its outcome line). */
export interface RecordedRender {
  readonly renderId: string
  readonly url: string
  readonly pageId: number | null
  readonly status: number | null
  readonly snapshotId: number | null
  readonly error: PageRendered['error']
}

export interface ScanRendersState {
  /** By pageUrlKey of the rendered URL. */
  readonly rendered: ReadonlyMap<string, RecordedRender>
}

export type ScanRendersCommand = { readonly type: 'RecordRender'; readonly render: PageRendered }

/** The render id: the scan and the URL (its key's hash), so a retried render of a URL names the same files. */
export const renderIdOf = (scanId: number, urlHash16: string) => `${scanId}-${urlHash16}`

function initialState(): ScanRendersState {
  return { rendered: new Map() }
}

function evolve(state: ScanRendersState, event: RendersEvent): ScanRendersState {
  const d = event.data
  const rendered = new Map(state.rendered)
  rendered.set(pageUrlKey(d.page_url), {
    renderId: d.render_id,
    url: d.page_url,
    pageId: d.page_id,
    status: d.status,
    snapshotId: d.snapshot_id,
    error: d.error,
  })
  return { rendered }
}

function decide(command: ScanRendersCommand, state: ScanRendersState): RendersEvent[] {
  // A URL already recorded in this scan is not recorded twice (a resumed scan, a retried append).
  if (state.rendered.has(pageUrlKey(command.render.page_url))) return []
  return [{ type: 'PageRendered', data: command.render }]
}

export const scanRenders: Aggregate<ScanRendersState, ScanRendersCommand, RendersEvent> = {
  streamOf: scanRendersStream,
  initialState,
  evolve,
  decide,
  entity: 'render scan',
}

/**
 * Which URLs a render scan renders, in order: the home page first, then the client's pages, each URL once
 * (compared as pages are), at most `max`.
 */
export function renderPlan(websiteUrl: string, urls: readonly string[], max: number): string[] {
  const seen = new Set<string>()
  const plan: string[] = []
  for (const url of [websiteUrl, ...urls]) {
    if (plan.length >= max) break
    const key = pageUrlKey(url)
    if (key === '' || seen.has(key)) continue
    seen.add(key)
    plan.push(url.trim())
  }
  return plan
}
