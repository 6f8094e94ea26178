import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'
import { elementorPagesProjector } from './elementor-projector.js'

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
    async SitemapPageAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('sitemap_pages')
        .values({
          id: d.page_id,
          project_id: d.project_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          title: d.title,
          slug: d.slug,
          parent_id: d.parent_id,
          page_type: d.page_type,
          position: d.position,
          primary_keyword: d.primary_keyword,
          status: d.status,
          wp_post_id: null,
          created_at: at,
          updated_at: at,
          status_changed_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SitemapPageUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('sitemap_pages')
        .set({
          title: d.title,
          slug: d.slug,
          parent_id: d.parent_id,
          page_type: d.page_type,
          position: d.position,
          primary_keyword: d.primary_keyword,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.page_id)
        .execute()
    },
    async SitemapPageStatusChanged(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('sitemap_pages')
        // A published page given another post id keeps its status, and the time it entered it.
        .set(
          d.from === d.to
            ? { wp_post_id: d.wp_post_id, updated_at: at }
            : { status: d.to, wp_post_id: d.wp_post_id, status_changed_at: at, updated_at: at },
        )
        .where('id', '=', d.page_id)
        .execute()
    },
    async SitemapPageDeleted(db, event) {
      const at = occurredAt(event)
      await db.updateTable('sitemap_pages').set({ deleted_at: at, updated_at: at }).where('id', '=', event.data.page_id).execute()
    },
    async GeneratedContentRecorded(db, event) {
      const d = event.data
      await db
        .insertInto('generated_content')
        .values({
          id: d.content_id,
          project_id: d.project_id,
          sitemap_page_id: d.sitemap_page_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          kind: d.kind,
          version: d.version,
          is_current: true,
          body: d.body,
          writer: d.writer,
          created_at: occurredAt(event),
          exported_at: null,
          pushed_at: null,
          wp_post_id: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      // Current: the highest version of the page and kind (an absolute value, whatever was applied before).
      const top = await db
        .selectFrom('generated_content')
        .select((eb) => eb.fn.max('version').as('version'))
        .where('sitemap_page_id', '=', d.sitemap_page_id)
        .where('kind', '=', d.kind)
        .executeTakeFirst()
      const current = Number(top?.version ?? d.version)
      await db
        .updateTable('generated_content')
        .set({ is_current: false })
        .where('sitemap_page_id', '=', d.sitemap_page_id)
        .where('kind', '=', d.kind)
        .where('version', '<>', current)
        .execute()
      await db
        .updateTable('generated_content')
        .set({ is_current: true })
        .where('sitemap_page_id', '=', d.sitemap_page_id)
        .where('kind', '=', d.kind)
        .where('version', '=', current)
        .execute()
    },
    async GeneratedContentExported(db, event) {
      // The first export's time stays: the event names only contents not exported before.
      await db
        .updateTable('generated_content')
        .set({ exported_at: occurredAt(event) })
        .where('id', 'in', event.data.content_ids)
        .where('exported_at', 'is', null)
        .execute()
    },
    async GeneratedContentPushed(db, event) {
      await db
        .updateTable('generated_content')
        .set({ pushed_at: occurredAt(event), wp_post_id: event.data.wp_post_id })
        .where('id', '=', event.data.content_id)
        .execute()
    },
  },
})

/** The website projects sub-area's projectors. */
export const websiteProjectsProjectors: readonly Projector[] = [websiteProjectsProjector, elementorPagesProjector]
