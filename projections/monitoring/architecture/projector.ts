import { sql } from 'kysely'
import type { PageState } from '../../../domain/monitoring/page-state.js'
import { executeWrite } from '../../live-write.js'
import { type EventOf, occurredAt, ofType, orgIdOf, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'
import { unnestRows } from '../../unnest.js'

type Snapshot = EventOf<'PageSnapshotRecorded'>

/**
 * The page state a snapshot carries, if any: crawled and rendered snapshots have one (PageState), those
 * posted with add_snapshot or written by a site edit have none and leave the page's links as the last crawl
 * saw them.
 */
function stateOf(event: Snapshot): Pick<PageState, 'url' | 'final_url' | 'status' | 'internal_links'> | null {
  const state = (event.data as { state?: PageState | null }).state
  return state === undefined || state === null ? null : state
}

/**
 * page_links and page_link_sources: each page's outgoing internal links as its latest snapshot with a page
 * state saw them, replaced whole on each such snapshot. Only a page's last such snapshot in the batch counts
 * (what applying them one by one would leave), so a batch is one delete, one insert and one upsert whatever
 * its size; a redelivered snapshot writes the same rows again.
 */
async function replaceLinks(db: ReadDb, events: readonly Snapshot[]): Promise<void> {
  const latest = new Map<number, { event: Snapshot; state: NonNullable<ReturnType<typeof stateOf>> }>()
  for (const event of events) {
    const state = stateOf(event)
    if (state !== null) latest.set(event.data.page_id, { event, state })
  }
  if (latest.size === 0) return
  const pageIds = [...latest.keys()]
  await db.deleteFrom('page_links').where(sql<boolean>`page_id = any(${pageIds}::bigint[])`).execute()

  const links: { page_id: number; to_url: string; org_id: number; client_id: number; from_url: string }[] = []
  for (const { event, state } of latest.values()) {
    for (const to of new Set(state.internal_links)) {
      links.push({ page_id: event.data.page_id, to_url: to, org_id: orgIdOf(event), client_id: event.data.client_id, from_url: state.url })
    }
  }
  if (links.length > 0) {
    await executeWrite(
      db,
      db
        .insertInto('page_links')
        .columns(['page_id', 'to_url', 'org_id', 'client_id', 'from_url'])
        .expression(
          unnestRows([
            [links.map((l) => l.page_id), 'bigint'],
            [links.map((l) => l.to_url), 'text'],
            [links.map((l) => l.org_id), 'bigint'],
            [links.map((l) => l.client_id), 'bigint'],
            [links.map((l) => l.from_url), 'text'],
          ]),
        ),
    )
  }

  const sources = [...latest.values()]
  await executeWrite(
    db,
    db
      .insertInto('page_link_sources')
      .columns(['page_id', 'org_id', 'client_id', 'snapshot_id', 'url', 'final_url', 'status', 'links', 'recorded_at'])
      .expression(
        unnestRows([
          [sources.map((s) => s.event.data.page_id), 'bigint'],
          [sources.map((s) => orgIdOf(s.event)), 'bigint'],
          [sources.map((s) => s.event.data.client_id), 'bigint'],
          [sources.map((s) => s.event.data.snapshot_id), 'bigint'],
          [sources.map((s) => s.state.url), 'text'],
          [sources.map((s) => s.state.final_url), 'text'],
          [sources.map((s) => s.state.status), 'bigint'],
          [sources.map((s) => new Set(s.state.internal_links).size), 'bigint'],
          [sources.map((s) => occurredAt(s.event)), 'timestamptz'],
        ]),
      )
      .onConflict((oc) =>
        oc.column('page_id').doUpdateSet((eb) => ({
          snapshot_id: eb.ref('excluded.snapshot_id'),
          url: eb.ref('excluded.url'),
          final_url: eb.ref('excluded.final_url'),
          status: eb.ref('excluded.status'),
          links: eb.ref('excluded.links'),
          recorded_at: eb.ref('excluded.recorded_at'),
        })),
      ),
  )
}

/** The architecture sub-area's projectors. */
export const architectureProjectors: readonly Projector[] = [
  {
    name: 'page_links',
    handles: ['PageSnapshotRecorded'],
    apply: (db, events) => replaceLinks(db, ofType(events, 'PageSnapshotRecorded')),
  },
]
