import { z } from 'zod'
import { Id } from '../../shared/values.js'
import {
  CATALOG_TAGS_MAX,
  CATALOG_TITLE_MAX_LENGTH,
  PageImage,
  PageSection,
  SECTION_DESCRIPTION_MAX_LENGTH,
  SECTION_FIELDS_MAX,
  SECTION_NAME_MAX_LENGTH,
  SectionCategory,
  SectionField,
  TEMPLATE_PAGE_IMAGES_MAX,
  TEMPLATE_PAGE_SECTIONS_MAX,
  TEMPLATE_PAGE_TITLE_MAX_LENGTH,
  TemplatePageStatus,
  TemplateRole,
  URL_MAX_LENGTH,
} from './values.js'

/*
 * Templates (issue 27), three streams by invariant:
 * - `section_templates`: the platform's one catalog of section templates (no organization), so "one active
 *   template per category and name" is decided against them all;
 * - `template_catalog-<library_client_id>`: a library client's saved Elementor templates, one entry per
 *   WordPress template id;
 * - `template_pages-<project_id>`: a project's template pages, at most one per sitemap page of the project.
 */

const SectionFields = {
  category: SectionCategory,
  name: z.string().min(1).max(SECTION_NAME_MAX_LENGTH),
  description: z.string().max(SECTION_DESCRIPTION_MAX_LENGTH),
  fields: z.array(SectionField).max(SECTION_FIELDS_MAX),
  elementor_json: z.string(),
}

/** add_section_template (or the built-in catalog's seeding). `built_in`: one of the catalog the service ships. */
export const SectionTemplateAdded = z.object({ template_id: Id, ...SectionFields, version: z.number().int().min(1), built_in: z.boolean() })

/** update_section_template: the template after the change, with its version one up. */
export const SectionTemplateUpdated = z.object({ template_id: Id, ...SectionFields, version: z.number().int().min(2) })

/** retire_section_template: no new page takes it; pages that have it keep it. */
export const SectionTemplateRetired = z.object({ template_id: Id })

const CatalogFields = {
  title: z.string().max(CATALOG_TITLE_MAX_LENGTH),
  role: TemplateRole,
  tags: z.array(z.string()).max(CATALOG_TAGS_MAX),
  thumbnail_url: z.string().max(URL_MAX_LENGTH).nullable(),
  /** The template's last-modified stamp on WordPress (its modified_gmt, ISO 8601); null when not known. */
  modified_gmt: z.string().max(64).nullable(),
}

/** record_template_catalog_entry: a library client's saved template, as it is now. */
export const TemplateCatalogEntryRecorded = z.object({ library_client_id: Id, template_id: Id, ...CatalogFields })

/** remove_template_catalog_entry: the template is gone from the library. */
export const TemplateCatalogEntryRemoved = z.object({ library_client_id: Id, template_id: Id })

const PageFields = {
  sitemap_page_id: Id.nullable(),
  title: z.string().max(TEMPLATE_PAGE_TITLE_MAX_LENGTH),
  sections: z.array(PageSection).max(TEMPLATE_PAGE_SECTIONS_MAX),
  images: z.array(PageImage).max(TEMPLATE_PAGE_IMAGES_MAX),
  status: TemplatePageStatus,
}

/** add_template_page. */
export const TemplatePageAdded = z.object({ project_id: Id, client_id: Id, page_id: Id, ...PageFields })

/** update_template_page: the page after the change (absolute values). */
export const TemplatePageUpdated = z.object({ project_id: Id, client_id: Id, page_id: Id, ...PageFields })

export const templatesEventSchemas = {
  SectionTemplateAdded,
  SectionTemplateUpdated,
  SectionTemplateRetired,
  TemplateCatalogEntryRecorded,
  TemplateCatalogEntryRemoved,
  TemplatePageAdded,
  TemplatePageUpdated,
} as const

type Schemas = typeof templatesEventSchemas
export type TemplatesEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type SectionTemplatesEvent = Extract<
  TemplatesEvent,
  { type: 'SectionTemplateAdded' | 'SectionTemplateUpdated' | 'SectionTemplateRetired' }
>
export type TemplateCatalogEvent = Extract<TemplatesEvent, { type: 'TemplateCatalogEntryRecorded' | 'TemplateCatalogEntryRemoved' }>
export type TemplatePagesEvent = Extract<TemplatesEvent, { type: 'TemplatePageAdded' | 'TemplatePageUpdated' }>
