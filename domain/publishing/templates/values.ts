import { z } from 'zod'

/*
 * The vocabulary of templates (issue 27): section templates (the platform's catalog of reusable page
 * sections), the template catalog of a library client (an agency's saved Elementor templates on its
 * WordPress) and template pages (a project's page assembled from both).
 */

/** A section's category: a short lower-case slug (hero, services_grid, testimonials, faq, cta, contact, …). */
export const SectionCategory = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'a lower-case slug: letters, digits and _, at most 40')
export const SECTION_NAME_MAX_LENGTH = 200
export const SECTION_DESCRIPTION_MAX_LENGTH = 2000
/** elementor_json's cap: a section's Elementor data, not a whole page. */
export const ELEMENTOR_JSON_MAX_BYTES = 256 * 1024
export const SECTION_FIELDS_MAX = 40

/** A slot of a section: text (with a length limit), an image (a URL) or a link (a URL or a site path). */
export const FIELD_KINDS = ['text', 'image', 'link'] as const
export const FieldKind = z.enum(FIELD_KINDS)
export type FieldKind = z.infer<typeof FieldKind>

export const FieldKey = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'a lower-case key: letters, digits and _, at most 40')
export const FIELD_TEXT_MAX_LENGTH = 20_000

export const SectionField = z.strictObject({
  key: FieldKey,
  kind: FieldKind,
  label: z.string().min(1).max(200),
  required: z.boolean(),
  /** For text: the most characters a filled value may have (null: FIELD_TEXT_MAX_LENGTH). Null for image and link. */
  max_length: z.number().int().min(1).max(FIELD_TEXT_MAX_LENGTH).nullable(),
})
export type SectionField = z.infer<typeof SectionField>

export const SECTION_TEMPLATE_STATUSES = ['active', 'retired'] as const
export const SectionTemplateStatus = z.enum(SECTION_TEMPLATE_STATUSES)
export type SectionTemplateStatus = z.infer<typeof SectionTemplateStatus>

/** What a saved Elementor template of a library client is for. */
export const TEMPLATE_ROLES = ['header', 'footer', 'page', 'section', 'popup'] as const
export const TemplateRole = z.enum(TEMPLATE_ROLES)
export type TemplateRole = z.infer<typeof TemplateRole>
export const CATALOG_TITLE_MAX_LENGTH = 500
export const CATALOG_TAGS_MAX = 30
export const CatalogTag = z.string().trim().min(1).max(100)
export const URL_MAX_LENGTH = 2000

/** A template page's life: assembled (draft), complete (ready), built on the site (built), set aside (archived). */
export const TEMPLATE_PAGE_STATUSES = ['draft', 'ready', 'built', 'archived'] as const
export const TemplatePageStatus = z.enum(TEMPLATE_PAGE_STATUSES)
export type TemplatePageStatus = z.infer<typeof TemplatePageStatus>
export const TEMPLATE_PAGE_TITLE_MAX_LENGTH = 500
export const TEMPLATE_PAGE_SECTIONS_MAX = 60
export const TEMPLATE_PAGE_IMAGES_MAX = 100

/** Where a section of a template page comes from: the platform's section templates, or the project's library client's catalog. */
export const SectionSource = z.enum(['section_template', 'catalog'])
export type SectionSource = z.infer<typeof SectionSource>

export const PageSection = z.strictObject({
  source: SectionSource,
  /** A section template id (source section_template) or a WordPress template id of the library client's catalog (source catalog). */
  template_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The filled slots, by field key. */
  fields: z.record(FieldKey, z.string().max(FIELD_TEXT_MAX_LENGTH)),
})
export type PageSection = z.infer<typeof PageSection>

/** An image slot of a template page: needed (no image yet), chosen (a URL picked), uploaded (in the site's media), failed (its upload failed). */
export const IMAGE_STATUSES = ['needed', 'chosen', 'uploaded', 'failed'] as const
export const ImageStatus = z.enum(IMAGE_STATUSES)
export type ImageStatus = z.infer<typeof ImageStatus>

export const PageImage = z.strictObject({
  slot: z.string().min(1).max(100),
  url: z.string().max(URL_MAX_LENGTH).nullable(),
  alt: z.string().max(1000),
  status: ImageStatus,
})
export type PageImage = z.infer<typeof PageImage>

/** A change's fields: each may be left out (or sent as undefined), and what is left out stays. */
export type Change<T> = { [K in keyof T]?: T[K] | undefined }
