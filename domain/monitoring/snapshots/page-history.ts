import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import type { PageSnapshotEvent } from '../../pages/events.js'
import type { SiteChangeEvent } from '../changes/events.js'
import type { PageState } from '../page-state.js'
import { sameContent } from './same-content.js'

/**
 * What the site monitor needs to know of one page's stream `page-<page_id>` to record a crawl: per source
 * the last recorded state's hash and where it is in the stream, and the newest site-edit snapshot. The state
 * is small on purpose (a few numbers and a hash, never a page's text): the command handler's state cache holds
 * one per page, and a crawl of 10,000 pages must not keep 10,000 main texts. The full state and the edit's
 * content are read back from the stream at the revision named here, only when a page changed.
 */
export type MonitorSource = 'crawl' | 'render'

/** A recorded snapshot, located: `revision` is its event's place in the page's stream. */
export interface SnapshotRef {
  readonly snapshotId: number
  readonly revision: number
}

export interface RecordedStateRef extends SnapshotRef {
  readonly contentHash: string
}

export interface SiteEditRef extends SnapshotRef {
  readonly editId: number
  readonly source: 'site_edit' | 'site_edit_rollback'
}

export interface PageHistoryState {
  /** Events folded so far: the revision the next event of the stream gets (every read starts at 0 or forward). */
  readonly events: number
  readonly lastSnapshot: SnapshotRef | null
  /** The newest snapshot recorded by each monitor source: a crawl is compared with crawls, a render with renders. */
  readonly crawl: RecordedStateRef | null
  readonly render: RecordedStateRef | null
  /** The newest snapshot a site edit (or its rollback) published. */
  readonly lastSiteEdit: SiteEditRef | null
}

export type PageHistoryEvent = PageSnapshotEvent | SiteChangeEvent

/**
 * Record what the monitor saw, with everything the caller read and allocated beforehand (the domain does no
 * I/O): the snapshot's id, the events describing the changes against the previous state of the same source
 * (already decided by siteChangesBetween), and the revision the decision was prepared on.
 */
export interface RecordMonitoredState {
  readonly type: 'RecordMonitoredState'
  /** The state.events the command was prepared against: a stream that moved since is prepared again. */
  readonly preparedAt: number
  readonly snapshot: PageSnapshotEvent['data'] & { readonly source: MonitorSource; readonly state: PageState }
  readonly changes: readonly SiteChangeEvent[]
}

export const initialPageHistory = (): PageHistoryState => ({ events: 0, lastSnapshot: null, crawl: null, render: null, lastSiteEdit: null })

function evolve(state: PageHistoryState, event: Evolving<PageHistoryEvent>): PageHistoryState {
  const revision = state.events
  const next = { ...state, events: revision + 1 }
  if (event.type !== 'PageSnapshotRecorded') return next
  const d = event.data
  const ref: SnapshotRef = { snapshotId: d.snapshot_id, revision }
  const withLast = { ...next, lastSnapshot: ref }
  switch (d.source) {
    case 'crawl':
    case 'render':
      return d.state === null ? withLast : { ...withLast, [d.source]: { ...ref, contentHash: d.state.content_hash } }
    case 'site_edit':
    case 'site_edit_rollback':
      return d.edit_id === null ? withLast : { ...withLast, lastSiteEdit: { ...ref, editId: d.edit_id, source: d.source } }
    case 'add_snapshot':
      return withLast
  }
}

/** The last recorded state of `source`, or null: what a new observation is compared with. */
export function lastRecorded(state: PageHistoryState, source: MonitorSource): RecordedStateRef | null {
  return state[source]
}

/** The site-edit snapshot recorded after the last `source` snapshot (the edit a change may be attributed to), or null. */
export function siteEditSince(state: PageHistoryState, source: MonitorSource): SiteEditRef | null {
  const edit = state.lastSiteEdit
  const previous = state[source]
  return edit !== null && (previous === null || edit.revision > previous.revision) ? edit : null
}

/** Whether an observation would be a new snapshot: the hash rule (sameContent) against the same source's last. */
export function isChange(state: PageHistoryState, source: MonitorSource, observed: PageState): boolean {
  const previous = state[source]
  return previous === null || !sameContent(previous.contentHash, observed.content_hash)
}

function decide(command: RecordMonitoredState, state: PageHistoryState): PageHistoryEvent[] {
  // Prepared on another state: the handler reads forward and prepares again (the builder runs per attempt),
  // so this only guards a caller that passed a stale command.
  if (command.preparedAt !== state.events) throw new TypeError('RecordMonitoredState prepared against another revision')
  if (!isChange(state, command.snapshot.source, command.snapshot.state)) return [] // a retried batch, or nothing new
  return [{ type: 'PageSnapshotRecorded', data: command.snapshot }, ...command.changes]
}

export const pageHistory: Aggregate<PageHistoryState, RecordMonitoredState, PageHistoryEvent> = {
  streamOf: (pageId: number) => `page-${pageId}`,
  initialState: initialPageHistory,
  evolve,
  decide,
}
