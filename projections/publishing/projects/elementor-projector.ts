import { elementorDataBytes } from '../../../domain/publishing/projects/elementor-values.js'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * elementor_pages, as the Elementor page events say: a recording sets the page's values absolutely (an upsert,
 * so a redelivered event leaves the same row), a removal deletes the row (deleting twice deletes nothing more).
 */
export const elementorPagesProjector: Projector = eachEvent({
  name: 'publishing_elementor_pages',
  handlers: {
    async ElementorPageRecorded(db, event) {
      const d = event.data
      const values = {
        org_id: orgIdOf(event),
        client_id: d.client_id,
        title: d.title,
        slug: d.slug,
        status: d.status,
        link: d.link,
        modified_gmt: d.modified_gmt,
        elementor_data: d.elementor_data,
        elementor_data_sha256: d.elementor_data_sha256,
        elementor_data_bytes: elementorDataBytes(d.elementor_data),
        widget_counts: JSON.stringify(d.widget_counts),
        recorded_at: occurredAt(event),
      }
      await db
        .insertInto('elementor_pages')
        .values({ project_id: d.project_id, wp_post_id: d.wp_post_id, ...values })
        .onConflict((oc) => oc.columns(['project_id', 'wp_post_id']).doUpdateSet(values))
        .execute()
    },
    async ElementorPageRemoved(db, event) {
      await db
        .deleteFrom('elementor_pages')
        .where('project_id', '=', event.data.project_id)
        .where('wp_post_id', '=', event.data.wp_post_id)
        .execute()
    },
  },
})
