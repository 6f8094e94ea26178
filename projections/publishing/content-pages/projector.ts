import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * content_pages, as the content page events say: a created page is inserted once (a redelivery finds its
 * row), an update sets the page's values as the event carries them.
 */
const contentPagesProjector: Projector = eachEvent({
  name: 'publishing_content_pages',
  handlers: {
    async ContentPageCreated(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('content_pages')
        .values({
          id: d.page_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          wp_post_id: d.wp_post_id,
          job_id: d.job_id,
          slug: d.slug,
          title: d.title,
          status: d.status,
          verify_json: d.verify_json,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async ContentPageUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('content_pages')
        .set({ slug: d.slug, title: d.title, status: d.status, verify_json: d.verify_json, updated_at: occurredAt(event) })
        .where('id', '=', d.page_id)
        .execute()
    },
  },
})

/** The content pages sub-area's projectors. */
export const contentPagesProjectors: readonly Projector[] = [contentPagesProjector]
