import type { AttributionContext, SiteEditSnapshot } from '../../domain/monitoring/changes/attribution.js'
import { siteChangesBetween, withChangeIds } from '../../domain/monitoring/changes/diff.js'
import { PageState } from '../../domain/monitoring/page-state.js'
import {
  isChange,
  lastRecorded,
  pageHistory,
  siteEditSince,
  type MonitorSource,
  type PageHistoryState,
  type RecordMonitoredState,
} from '../../domain/monitoring/snapshots/page-history.js'
import { PageTitle } from '../../domain/pages/events.js'
import { pageIndex, pageSet } from '../../domain/pages/page-set.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import { decode } from '../event-store/decode.js'
import type { Position } from '../event-store/port.js'

/** One page as a crawl (or render) saw it. */
export interface CrawledPage {
  /** The URL crawled: the page is found (or created) by it, compared as add_page compares URLs. */
  readonly url: string
  readonly state: PageState
  /** The response's ETag and Last-Modified, kept for the next scan's conditional request. */
  readonly etag?: string | null | undefined
  readonly lastModified?: string | null | undefined
}

export interface RecordCrawledPagesInput {
  readonly orgId: number
  readonly clientId: number
  /** The scan that saw the pages: each snapshot carries it (scan_id); null for states recorded outside a scan (the sandbox's fiction). */
  readonly scanId: number | null
  readonly source: MonitorSource
  readonly pages: readonly CrawledPage[]
}

export interface CrawledPageResult {
  readonly url: string
  readonly pageId: number
  /** The snapshot recorded; null when the page said the same as its last snapshot of this source (unchanged). */
  readonly snapshotId: number | null
  /** Site changes recorded with the snapshot (0 when unchanged). */
  readonly changes: number
}

/** Pages of one batch recorded at once: the page streams are independent, so a few appends run side by side. */
const PAGE_CONCURRENCY = 4

/**
 * Records one batch of a scan's pages: get-or-creates the pages in one append to the client's page set (a
 * page a crawl finds is added active, with its title), then, per page whose content hash differs from its
 * last recorded state of the same source, appends to `page-<id>` the PageSnapshotRecorded and, in the same
 * append, the SiteChangeDetected events of the difference (domain/monitoring/changes). Idempotent: the same
 * batch again finds every hash equal and records nothing, so a scan resumed after a crash never duplicates a
 * snapshot. The caller has checked that the client is visible to it and writable.
 */
export async function recordCrawledPages(
  deps: WriteDeps,
  context: CommandContext,
  input: RecordCrawledPagesInput,
): Promise<{ results: CrawledPageResult[]; position: Position | null }> {
  const pages = input.pages.map((p) => ({ ...p, state: PageState.parse(p.state) }))
  const pageIds = await getOrCreatePages(deps, context, input, pages)
  let position: Position | null = pageIds.position
  const results: CrawledPageResult[] = new Array(pages.length)
  // One URL twice in a batch (or two URLs of one page): its entries run in order, by one worker, so the first
  // is the one recorded and the second finds it, whatever the interleaving.
  const byPage = new Map<number, number[]>()
  pageIds.byIndex.forEach((pageId, index) => {
    const indexes = byPage.get(pageId)
    if (indexes) indexes.push(index)
    else byPage.set(pageId, [index])
  })
  const groups = [...byPage.values()]
  let next = 0
  const worker = async () => {
    while (next < groups.length) {
      for (const index of groups[next++]!) {
        const page = pages[index]!
        const pageId = pageIds.byIndex[index]!
        const outcome = await recordPageState(deps, context, input, pageId, page)
        results[index] = { url: page.url, pageId, snapshotId: outcome.snapshotId, changes: outcome.changes }
        if (outcome.position !== null && (position === null || deps.store.comparePositions(outcome.position, position) > 0)) {
          position = outcome.position
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, groups.length) }, worker))
  return { results, position }
}

/** A page's title as the page set keeps it: the state's <title>, trimmed and bounded like add_page's. */
const titleOf = (state: PageState): string => PageTitle.parse((state.title ?? '').slice(0, 500))

/** The page ids of the batch, in order: the known ones found by URL, the new ones added in one page-set append. */
async function getOrCreatePages(
  deps: WriteDeps,
  context: CommandContext,
  input: RecordCrawledPagesInput,
  pages: readonly CrawledPage[],
): Promise<{ byIndex: number[]; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: pageSet,
    id: input.clientId,
    // Ids only for URLs the set misses, allocated against the state this attempt decides on.
    command: async (state) => {
      const find = pageIndex(state)
      const missing = pages.filter((p) => !find(p.url))
      const ids = await deps.ids.nextMany('page', missing.length)
      return {
        type: 'AddCrawledPages' as const,
        client_id: input.clientId,
        pages: missing.map((p, i) => ({ url: p.url, title: titleOf(p.state), page_id: ids[i]! })),
      }
    },
    context,
    orgId: input.orgId,
  })
  const find = pageIndex(outcome.state)
  const byIndex = pages.map((p) => {
    const page = find(p.url)
    if (!page) throw new Error(`recordCrawledPages: ${p.url} is not in the page set after adding it`)
    return page.id
  })
  return { byIndex, position: outcome.position }
}

/** One page: a snapshot and its changes when the content hash differs from the last recorded state of the source. */
async function recordPageState(
  deps: WriteDeps,
  context: CommandContext,
  input: RecordCrawledPagesInput,
  pageId: number,
  page: CrawledPage,
): Promise<{ snapshotId: number | null; changes: number; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: pageHistory,
    id: pageId,
    // Prepared per attempt on the state it is decided on: what it reads back is where that state points.
    command: (state) => prepare(deps, input, pageId, page, state),
    context,
    orgId: input.orgId,
  })
  const snapshot = outcome.events.find((e) => e.type === 'PageSnapshotRecorded')
  return {
    snapshotId: snapshot ? snapshot.data.snapshot_id : null,
    changes: outcome.events.filter((e) => e.type === 'SiteChangeDetected').length,
    position: outcome.position,
  }
}

async function prepare(
  deps: WriteDeps,
  input: RecordCrawledPagesInput,
  pageId: number,
  page: CrawledPage,
  state: PageHistoryState,
): Promise<RecordMonitoredState> {
  const base = { type: 'RecordMonitoredState' as const, preparedAt: state.events }
  const after = page.state
  const snapshot = {
    snapshot_id: 0,
    page_id: pageId,
    client_id: input.clientId,
    title: titleOf(after),
    content: after.main_text,
    source: input.source,
    edit_id: null,
    scan_id: input.scanId,
    state: after,
    etag: page.etag ?? null,
    last_modified: page.lastModified ?? null,
  }
  // Unchanged: decide records nothing, so nothing is read or allocated.
  if (!isChange(state, input.source, after)) return { ...base, snapshot, changes: [] }
  const previous = lastRecorded(state, input.source)
  const before = previous === null ? null : await stateAt(deps, pageId, previous.revision)
  const edit = siteEditSince(state, input.source)
  const attribution: AttributionContext = { latestSiteEdit: edit === null ? null : await siteEditAt(deps, pageId, edit.revision) }
  const snapshotId = await deps.ids.next('page_snapshot')
  const drafts = siteChangesBetween(
    before,
    after,
    { client_id: input.clientId, page_id: pageId, snapshot_id: snapshotId, previous_snapshot_id: previous?.snapshotId ?? null },
    attribution,
  )
  const changeIds = await deps.ids.nextMany('site_change', drafts.length)
  return { ...base, snapshot: { ...snapshot, snapshot_id: snapshotId }, changes: withChangeIds(drafts, changeIds) }
}

/** The page stream's event at `revision`, decoded (upcast to the current schema). */
async function eventAt(deps: WriteDeps, pageId: number, revision: number) {
  for await (const recorded of deps.store.readStream(pageHistory.streamOf(pageId), { fromRevision: BigInt(revision), maxCount: 1 })) {
    const event = decode(recorded)
    if (event.type === 'PageSnapshotRecorded') return event.data
  }
  throw new Error(`page-${pageId}@${revision} is not the snapshot the page's history points to`)
}

async function stateAt(deps: WriteDeps, pageId: number, revision: number): Promise<PageState> {
  const data = await eventAt(deps, pageId, revision)
  if (data.state === null) throw new Error(`page-${pageId}@${revision} has no page state`)
  return data.state
}

async function siteEditAt(deps: WriteDeps, pageId: number, revision: number): Promise<SiteEditSnapshot> {
  const data = await eventAt(deps, pageId, revision)
  if (data.edit_id === null || (data.source !== 'site_edit' && data.source !== 'site_edit_rollback')) {
    throw new Error(`page-${pageId}@${revision} is not a site edit's snapshot`)
  }
  return { edit_id: data.edit_id, snapshot_id: data.snapshot_id, source: data.source, title: data.title, content: data.content }
}
