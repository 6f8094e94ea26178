import { eachEvent } from '../../each-event.js'
import { occurredAt, type Projector } from '../../projector.js'

/**
 * website_projects, as the projects' events say. An added project is inserted once; an update or a status
 * change sets absolute values, so a redelivered event leaves the same row.
 */
const websiteProjectsProjector: Projector = eachEvent({
  name: 'publishing_projects',
  handlers: {
    async WebsiteProjectAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('website_projects')
        .values({
          id: d.project_id,
          org_id: d.org_id,
          client_id: d.client_id,
          name: d.name,
          kind: d.kind,
          status: d.status,
          site_url: d.site_url,
          staging_url: d.staging_url,
          library_client_id: d.library_client_id,
          notes: d.notes,
          created_at: at,
          updated_at: at,
          status_changed_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async WebsiteProjectUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('website_projects')
        .set({
          name: d.name,
          kind: d.kind,
          site_url: d.site_url,
          staging_url: d.staging_url,
          library_client_id: d.library_client_id,
          notes: d.notes,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.project_id)
        .execute()
    },
    async WebsiteProjectStatusChanged(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('website_projects')
        .set({ status: event.data.to, status_changed_at: at, updated_at: at })
        .where('id', '=', event.data.project_id)
        .execute()
    },
  },
})

/** The website projects sub-area's projectors. */
export const websiteProjectsProjectors: readonly Projector[] = [websiteProjectsProjector]
