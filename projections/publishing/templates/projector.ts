import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * section_templates, template_catalog_entries and template_pages, as the templates' events say. Every
 * handler writes absolute values: an added row is inserted once (a redelivery finds it), a change sets the
 * row's columns as the event carries them, a catalog entry is upserted and deleted when removed.
 */
const templatesProjector: Projector = eachEvent({
  name: 'publishing_templates',
  handlers: {
    async SectionTemplateAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('section_templates')
        .values({
          id: d.template_id,
          category: d.category,
          name: d.name,
          description: d.description,
          fields: JSON.stringify(d.fields),
          elementor_json: d.elementor_json,
          version: d.version,
          status: 'active',
          built_in: d.built_in,
          created_at: at,
          updated_at: at,
          retired_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SectionTemplateUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('section_templates')
        .set({
          category: d.category,
          name: d.name,
          description: d.description,
          fields: JSON.stringify(d.fields),
          elementor_json: d.elementor_json,
          version: d.version,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.template_id)
        .execute()
    },
    async SectionTemplateRetired(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('section_templates')
        .set({ status: 'retired', retired_at: at, updated_at: at })
        .where('id', '=', event.data.template_id)
        .execute()
    },
    async TemplateCatalogEntryRecorded(db, event) {
      const d = event.data
      const row = {
        title: d.title,
        role: d.role,
        tags: JSON.stringify(d.tags),
        thumbnail_url: d.thumbnail_url,
        modified_gmt: d.modified_gmt,
        recorded_at: occurredAt(event),
      }
      await db
        .insertInto('template_catalog_entries')
        .values({ client_id: d.library_client_id, template_id: d.template_id, org_id: orgIdOf(event), ...row })
        .onConflict((oc) => oc.columns(['client_id', 'template_id']).doUpdateSet(row))
        .execute()
    },
    async TemplateCatalogEntryRemoved(db, event) {
      await db
        .deleteFrom('template_catalog_entries')
        .where('client_id', '=', event.data.library_client_id)
        .where('template_id', '=', event.data.template_id)
        .execute()
    },
    async TemplatePageAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('template_pages')
        .values({
          id: d.page_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          project_id: d.project_id,
          sitemap_page_id: d.sitemap_page_id,
          title: d.title,
          sections: JSON.stringify(d.sections),
          images: JSON.stringify(d.images),
          status: d.status,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async TemplatePageUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('template_pages')
        .set({
          sitemap_page_id: d.sitemap_page_id,
          title: d.title,
          sections: JSON.stringify(d.sections),
          images: JSON.stringify(d.images),
          status: d.status,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.page_id)
        .execute()
    },
  },
})

/** The templates sub-area's projectors. */
export const templatesProjectors: readonly Projector[] = [templatesProjector]
