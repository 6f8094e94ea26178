import { occurredAt, orgIdOf, type Projector } from '../projector.js'
import { sql } from 'kysely'
import { eachEvent } from '../each-event.js'
import type { PageState } from '../../domain/monitoring/page-state.js'
import type { StoredPageState } from './tables.js'

/** The state without its main text: the snapshot's content is that text (commands/monitoring/snapshots.ts). */
function storedState({ main_text: _text, ...rest }: PageState): StoredPageState {
  return rest
}

/**
 * pages and page_snapshots. Inserts are keyed by the record's id (a replay does nothing); updates carry
 * the event's values (a replay writes the same values) and move updated_at only forward.
 */
export const pagesProjector: Projector = eachEvent({
  name: 'pages',
  handlers: {
    async PageAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('pages')
        .values({
          id: d.page_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          url: d.url,
          slug: d.slug,
          wp_post_id: d.wp_post_id,
          title: d.title,
          active: d.active,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async PageUpdated(db, event) {
      const {
        page_id,
        client_id: _client,
        ...changes
      } = event.data as {
        page_id: number
        client_id: number
        slug?: string
        wp_post_id?: number | null
        title?: string
        active?: boolean
      }
      await db
        .updateTable('pages')
        .set({ ...changes, updated_at: sql`greatest(updated_at, ${occurredAt(event)})` })
        .where('id', '=', page_id)
        .execute()
    },
    async PagesDeactivated(db, event) {
      const ids = event.data.page_ids as number[]
      await db
        .updateTable('pages')
        .set({ active: false, updated_at: sql`greatest(updated_at, ${occurredAt(event)})` })
        .where('id', 'in', ids)
        .execute()
    },
    async PageSnapshotRecorded(db, event) {
      const d = event.data
      await db
        .insertInto('page_snapshots')
        .values({
          id: d.snapshot_id,
          page_id: d.page_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          title: d.title,
          content: d.content,
          source: d.source,
          edit_id: d.edit_id,
          scan_id: d.scan_id,
          state: d.state === null ? null : JSON.stringify(storedState(d.state)),
          etag: d.etag,
          last_modified: d.last_modified,
          created_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
  },
})
