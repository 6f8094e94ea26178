import { z } from 'zod'
import { recordTemplateCatalogEntry, removeTemplateCatalogEntry } from '../../../commands/publishing/templates/catalog.js'
import {
  addSectionTemplate,
  retireSectionTemplate,
  updateSectionTemplate,
} from '../../../commands/publishing/templates/section-templates.js'
import { addTemplatePage, updateTemplatePage } from '../../../commands/publishing/templates/template-pages.js'
import {
  CATALOG_TAGS_MAX,
  CATALOG_TITLE_MAX_LENGTH,
  CatalogTag,
  FieldKey,
  FieldKind,
  FIELD_TEXT_MAX_LENGTH,
  ImageStatus,
  SECTION_DESCRIPTION_MAX_LENGTH,
  SECTION_FIELDS_MAX,
  SECTION_NAME_MAX_LENGTH,
  SectionCategory,
  SectionSource,
  SectionTemplateStatus,
  TEMPLATE_PAGE_IMAGES_MAX,
  TEMPLATE_PAGE_SECTIONS_MAX,
  TEMPLATE_PAGE_TITLE_MAX_LENGTH,
  TemplatePageStatus,
  TemplateRole,
  URL_MAX_LENGTH,
} from '../../../domain/publishing/templates/values.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { websiteProjectForOrg } from '../../../projections/publishing/projects/queries.js'
import {
  sectionTemplate,
  sectionTemplates,
  templateCatalog,
  templateCatalogEntry,
  templateImagesReport,
  templatePagesForProject,
  templatePageView,
  visibleTemplatePage,
} from '../../../projections/publishing/templates/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'publishing'

const SectionTemplateId = Id.describe('The section template (an integer id, as add_section_template or get_section_templates answered)')
const LibraryClientId = Id.describe("The library client: the client whose WordPress holds the agency's saved Elementor templates")
const WpTemplateId = Id.describe("The saved template's post id on the library client's WordPress")
const ProjectId = Id.describe('The website project (an integer id, as add_website_project answered)')
const TemplatePageId = Id.describe('The template page (an integer id, as add_template_page or get_template_pages_for_project answered)')
const HttpUrl = z
  .string()
  .max(URL_MAX_LENGTH)
  .regex(/^https?:\/\/\S+$/, 'an http(s) URL')

const FieldSchema = z
  .strictObject({
    key: FieldKey.describe("The slot's key: what {{key}} in elementor_json stands for (lower-case letters, digits, _)"),
    kind: FieldKind.describe('text, image (an http(s) URL) or link (a URL, /path, #anchor, mailto: or tel:)'),
    label: z.string().min(1).max(200).describe('What a person filling it sees'),
    required: z.boolean().describe('Whether a finished page must fill it'),
    max_length: z
      .number()
      .int()
      .min(1)
      .max(FIELD_TEXT_MAX_LENGTH)
      .nullable()
      .describe(`For text: the most characters a value may have (null: ${FIELD_TEXT_MAX_LENGTH}); null for image and link`),
  })
  .describe('A slot the section fills')

const SectionTemplateSchema = z
  .object({
    id: SectionTemplateId,
    category: z.string().describe('Its category (hero, services_grid, testimonials, faq, cta, contact, …)'),
    name: z.string().describe('Its name, unique among the active templates of its category'),
    description: z.string().describe('What it is for'),
    fields: z.array(FieldSchema).describe('The slots it fills, in order'),
    elementor_json: z.string().describe("The section's Elementor data, JSON text with a {{key}} placeholder for each field"),
    placeholders: z.array(z.string()).describe('The field keys elementor_json uses, in first-use order'),
    version: z.number().int().describe('1 when added, one up with each update'),
    status: SectionTemplateStatus.describe('active, or retired (no new section takes it)'),
    built_in: z.boolean().describe('Whether it is one of the catalog the service ships'),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
    retired_at: z.string().nullable().describe('When it was retired; null: active'),
  })
  .describe('A section template of the platform catalog')

const CatalogEntrySchema = z
  .object({
    library_client_id: LibraryClientId,
    template_id: WpTemplateId,
    title: z.string().describe("The template's title on WordPress"),
    role: TemplateRole.describe('header, footer, page, section or popup'),
    tags: z.array(z.string()).describe('Its tags'),
    thumbnail_url: z.string().nullable().describe('A preview image; null when none'),
    modified_gmt: z.string().nullable().describe('Its last-modified stamp on WordPress (modified_gmt); null when not known'),
    recorded_at: z.string().describe('When the service last recorded it (ISO 8601)'),
  })
  .describe("An Elementor template saved in a library client's WordPress")

const SectionInput = z
  .strictObject({
    source: SectionSource.describe("section_template (the platform catalog) or catalog (the project's library client's saved templates)"),
    template_id: Id.describe("The section template id, or the saved template's WordPress id for source catalog"),
    fields: z
      .record(FieldKey, z.string().max(FIELD_TEXT_MAX_LENGTH))
      .default({})
      .describe("The filled slots by field key (a section template's fields; free keys for a catalog template)"),
  })
  .describe('One section of the page, in order')

const ImageInput = z
  .strictObject({
    slot: z.string().min(1).max(100).describe('Which image of the page (e.g. hero_background)'),
    url: HttpUrl.nullable().describe('The image; null while none is chosen'),
    alt: z.string().max(1000).default('').describe("Its alt text ('' when not written yet)"),
    status: ImageStatus.describe('needed (no url), chosen, uploaded (in the site’s media) or failed (its upload failed)'),
  })
  .describe('An image slot of the page')

const ImageCountsSchema = {
  slots: z.number().int().describe('Image slots'),
  filled: z.number().int().describe('Slots with an image'),
  missing: z.number().int().describe('Slots without an image yet'),
  without_alt: z.number().int().describe('Slots with an image but no alt text'),
  missing_slots: z.array(z.string()).describe('The slots without an image'),
  without_alt_slots: z.array(z.string()).describe('The slots with an image but no alt text'),
}

const TemplatePageSchema = z
  .object({
    id: TemplatePageId,
    project_id: ProjectId,
    client_id: ClientId,
    sitemap_page_id: Id.nullable().describe('The sitemap page it builds; null when none'),
    title: z.string().describe("The page's title"),
    sections: z
      .array(
        z.object({
          source: SectionSource.describe('section_template or catalog'),
          template_id: Id.describe('The section template id or the catalog template id'),
          fields: z.record(z.string(), z.string()).describe('The filled slots by field key'),
        }),
      )
      .describe('Its sections, in order'),
    images: z
      .array(
        z.object({
          slot: z.string().describe('Which image'),
          url: z.string().nullable().describe('The image; null: none yet'),
          alt: z.string().describe('Its alt text'),
          status: ImageStatus.describe('needed, chosen, uploaded or failed'),
        }),
      )
      .describe('Its image slots'),
    image_counts: z.object(ImageCountsSchema).describe('How its image slots stand'),
    status: TemplatePageStatus.describe('draft, ready, built (on the site) or archived'),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
  })
  .describe("A project's page built from templates")

const heroElementor =
  '[{"id":"hero01","elType":"container","elements":[{"id":"hero02","elType":"widget","widgetType":"heading","settings":{"title":"{{headline}}"}}]}]'
const exampleSection = {
  id: 3,
  category: 'hero',
  name: 'Simple hero',
  description: 'A headline on a plain band',
  fields: [{ key: 'headline', kind: 'text' as const, label: 'Headline', required: true, max_length: 90 }],
  elementor_json: heroElementor,
  placeholders: ['headline'],
  version: 1,
  status: 'active' as const,
  built_in: false,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-20T09:00:00.000Z',
  retired_at: null,
}
const exampleEntry = {
  library_client_id: 40,
  template_id: 2211,
  title: 'Header – dark',
  role: 'header' as const,
  tags: ['dark', 'sticky'],
  thumbnail_url: 'https://library.example.com/wp-content/uploads/header-dark.png',
  modified_gmt: '2026-11-02T14:10:00',
  recorded_at: '2026-11-20T09:00:00.000Z',
}
const exampleImages = [
  { slot: 'hero_background', url: 'https://cdn.example.com/austin-van.jpg', alt: '', status: 'chosen' as const },
  { slot: 'team_photo', url: null, alt: '', status: 'needed' as const },
]
const examplePage = {
  id: 9,
  project_id: 5,
  client_id: 34,
  sitemap_page_id: 17,
  title: 'Drain Cleaning',
  sections: [
    { source: 'catalog' as const, template_id: 2211, fields: {} },
    { source: 'section_template' as const, template_id: 3, fields: { headline: 'Drain cleaning in Austin' } },
  ],
  images: exampleImages,
  image_counts: { slots: 2, filled: 1, missing: 1, without_alt: 1, missing_slots: ['team_photo'], without_alt_slots: ['hero_background'] },
  status: 'draft' as const,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-20T09:00:00.000Z',
}

const Category = SectionCategory.describe('A lower-case slug: hero, services_grid, testimonials, faq, cta, contact, …')
const SectionName = z
  .string()
  .trim()
  .min(1)
  .max(SECTION_NAME_MAX_LENGTH)
  .describe(`Its name, unique among the category's active templates (at most ${SECTION_NAME_MAX_LENGTH} characters)`)
const Description = z
  .string()
  .max(SECTION_DESCRIPTION_MAX_LENGTH)
  .describe(`What it is for (at most ${SECTION_DESCRIPTION_MAX_LENGTH} characters)`)
const Fields = z
  .array(FieldSchema)
  .max(SECTION_FIELDS_MAX)
  .describe(`The slots it fills (at most ${SECTION_FIELDS_MAX}), each used as {{key}} in elementor_json`)
const ElementorJson = z
  .string()
  .min(2)
  .describe("The section's Elementor data as JSON text (at most 256 KiB), with a {{key}} placeholder for each field and none other")

const Sections = z.array(SectionInput).max(TEMPLATE_PAGE_SECTIONS_MAX)
const Images = z.array(ImageInput).max(TEMPLATE_PAGE_IMAGES_MAX)
const PageTitle = z.string().max(TEMPLATE_PAGE_TITLE_MAX_LENGTH)

export const templatesRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_section_templates',
    domain,
    access: 'read',
    orgScoped: false,
    summary:
      'The platform catalog of section templates (reusable page sections), by category then name: the active ones, optionally of one category.',
    example: { params: { category: 'hero' }, result: [exampleSection] },
    params: z.strictObject({
      category: Category.optional().describe('Only this category (default: all)'),
      include_retired: z.boolean().optional().describe('Also the retired ones (default false)'),
    }),
    result: z.array(SectionTemplateSchema),
    handler: async (ctx) => sectionTemplates(ctx.read, ctx.params.category, ctx.params.include_retired ?? false),
  }),
  rpc({
    name: 'get_section_template',
    domain,
    access: 'read',
    orgScoped: false,
    summary: 'A section template of the platform catalog, retired or not, with its fields and Elementor data.',
    example: { params: { template_id: 3 }, result: exampleSection },
    params: z.strictObject({ template_id: SectionTemplateId }),
    result: SectionTemplateSchema,
    handler: async (ctx) => sectionTemplate(ctx.read, ctx.params.template_id),
  }),
  rpc({
    name: 'add_section_template',
    domain,
    access: 'write',
    orgScoped: false,
    platformOnly: true,
    summary:
      'Add a section template to the platform catalog. Its name must be free among the active templates of its category (409 section_template_name_taken); ' +
      'elementor_json must parse and use exactly its fields as {{key}} placeholders (400 section_template_invalid). Returns the template (version 1).',
    example: {
      params: {
        category: 'hero',
        name: 'Simple hero',
        description: 'A headline on a plain band',
        fields: exampleSection.fields,
        elementor_json: heroElementor,
      },
      result: exampleSection,
    },
    params: z.strictObject({
      category: Category,
      name: SectionName,
      description: Description.default(''),
      fields: Fields,
      elementor_json: ElementorJson,
    }),
    result: SectionTemplateSchema,
    async handler(ctx) {
      const { templateId } = await addSectionTemplate(ctx.write, ctx.command, ctx.params)
      await ctx.settle()
      return sectionTemplate(ctx.read, templateId)
    },
  }),
  rpc({
    name: 'update_section_template',
    domain,
    access: 'write',
    orgScoped: false,
    platformOnly: true,
    summary:
      'Change an active section template: what is given replaces what it had and its version goes up by one; the same values again change nothing. ' +
      'The same rules as add_section_template; a retired template answers 409 section_template_retired. Returns the template.',
    example: {
      params: { template_id: 3, description: 'A headline on a plain band, for service pages' },
      result: { ...exampleSection, version: 2 },
    },
    params: z.strictObject({
      template_id: SectionTemplateId,
      category: Category.optional(),
      name: SectionName.optional(),
      description: Description.optional(),
      fields: Fields.optional(),
      elementor_json: ElementorJson.optional(),
    }),
    result: SectionTemplateSchema,
    async handler(ctx) {
      const { template_id, ...change } = ctx.params
      await updateSectionTemplate(ctx.write, ctx.command, { templateId: template_id, ...change })
      await ctx.settle()
      return sectionTemplate(ctx.read, template_id)
    },
  }),
  rpc({
    name: 'retire_section_template',
    domain,
    access: 'write',
    orgScoped: false,
    platformOnly: true,
    summary:
      'Retire a section template: it leaves get_section_templates and no new section takes it; template pages that have it keep it. Retiring again changes nothing. Returns the template.',
    example: {
      params: { template_id: 3 },
      result: { ...exampleSection, status: 'retired' as const, retired_at: '2026-11-21T09:00:00.000Z' },
    },
    params: z.strictObject({ template_id: SectionTemplateId }),
    result: SectionTemplateSchema,
    async handler(ctx) {
      await retireSectionTemplate(ctx.write, ctx.command, { templateId: ctx.params.template_id })
      await ctx.settle()
      return sectionTemplate(ctx.read, ctx.params.template_id)
    },
  }),
  rpc({
    name: 'list_template_catalog',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The Elementor templates saved in a library client's WordPress, by role then title, optionally of one role.",
    example: { params: { library_client_id: 40, role: 'header' }, result: [exampleEntry] },
    params: z.strictObject({ library_client_id: LibraryClientId, role: TemplateRole.optional().describe('Only this role (default: all)') }),
    result: z.array(CatalogEntrySchema),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.library_client_id)
      return templateCatalog(ctx.read, ctx.params.library_client_id, ctx.params.role)
    },
  }),
  rpc({
    name: 'get_template_catalog_entry',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "One saved template of a library client's catalog; 404 when the library does not hold it.",
    example: { params: { library_client_id: 40, template_id: 2211 }, result: exampleEntry },
    params: z.strictObject({ library_client_id: LibraryClientId, template_id: WpTemplateId }),
    result: CatalogEntrySchema,
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.library_client_id)
      return templateCatalogEntry(ctx.read, ctx.params.library_client_id, ctx.params.template_id)
    },
  }),
  rpc({
    name: 'record_template_catalog_entry',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Record a template saved in a library client's WordPress as it is now: added, or replaced when it changed; the same values again change nothing " +
      '(what an agent reading the library, or next the sync, calls for each template). Returns the entry.',
    example: {
      params: {
        library_client_id: 40,
        template_id: 2211,
        title: 'Header – dark',
        role: 'header',
        tags: ['dark', 'sticky'],
        thumbnail_url: exampleEntry.thumbnail_url,
        modified_gmt: '2026-11-02T14:10:00',
      },
      result: exampleEntry,
    },
    params: z.strictObject({
      library_client_id: LibraryClientId,
      template_id: WpTemplateId,
      title: z.string().max(CATALOG_TITLE_MAX_LENGTH).describe(`Its title on WordPress (at most ${CATALOG_TITLE_MAX_LENGTH} characters)`),
      role: TemplateRole.describe('header, footer, page, section or popup'),
      tags: z.array(CatalogTag).max(CATALOG_TAGS_MAX).optional().describe(`Its tags (at most ${CATALOG_TAGS_MAX}; default none)`),
      thumbnail_url: HttpUrl.nullable().optional().describe('A preview image, an http(s) URL (default none)'),
      modified_gmt: z.string().max(64).nullable().optional().describe('Its modified_gmt stamp on WordPress (default none)'),
    }),
    result: CatalogEntrySchema,
    async handler(ctx) {
      const p = ctx.params
      await visibleClient(ctx.read, ctx.orgId, p.library_client_id)
      await recordTemplateCatalogEntry(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        libraryClientId: p.library_client_id,
        templateId: p.template_id,
        title: p.title,
        role: p.role,
        tags: p.tags ?? [],
        thumbnail_url: p.thumbnail_url ?? null,
        modified_gmt: p.modified_gmt ?? null,
      })
      await ctx.settle()
      return templateCatalogEntry(ctx.read, p.library_client_id, p.template_id)
    },
  }),
  rpc({
    name: 'remove_template_catalog_entry',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Remove a template from a library client's catalog (it is gone from the library's WordPress); removing again changes nothing, a template never recorded answers 404. " +
      'Template pages that use it keep it.',
    example: { params: { library_client_id: 40, template_id: 2211 }, result: { library_client_id: 40, template_id: 2211, removed: true } },
    params: z.strictObject({ library_client_id: LibraryClientId, template_id: WpTemplateId }),
    result: z.object({
      library_client_id: LibraryClientId,
      template_id: WpTemplateId,
      removed: z.boolean().describe('true: removed now; false: it was already removed'),
    }),
    async handler(ctx) {
      const p = ctx.params
      await visibleClient(ctx.read, ctx.orgId, p.library_client_id)
      const { removed } = await removeTemplateCatalogEntry(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        libraryClientId: p.library_client_id,
        templateId: p.template_id,
      })
      return { library_client_id: p.library_client_id, template_id: p.template_id, removed }
    },
  }),
  rpc({
    name: 'get_template_pages_for_project',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The project's template pages, oldest first, each with its sections, images and how its image slots stand.",
    example: { params: { project_id: 5 }, result: [examplePage] },
    params: z.strictObject({ project_id: ProjectId }),
    result: z.array(TemplatePageSchema),
    async handler(ctx) {
      await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      return templatePagesForProject(ctx.read, ctx.params.project_id)
    },
  }),
  rpc({
    name: 'get_template_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'A template page: a project page built from section templates and the library client’s saved templates.',
    example: { params: { page_id: 9 }, result: examplePage },
    params: z.strictObject({ page_id: TemplatePageId }),
    result: TemplatePageSchema,
    handler: async (ctx) => templatePageView(await visibleTemplatePage(ctx.read, ctx.orgId, ctx.params.page_id)),
  }),
  rpc({
    name: 'add_template_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Add a page to a website project, built from sections: platform section templates (active; filled values must fit their fields, 400 template_page_fields_invalid) ' +
      "or saved templates of the project's library client (409 template_page_library_missing without one). At most one per sitemap page (409 template_page_sitemap_page_taken). Returns the page.",
    example: {
      params: { project_id: 5, sitemap_page_id: 17, title: 'Drain Cleaning', sections: examplePage.sections, images: exampleImages },
      result: examplePage,
    },
    params: z.strictObject({
      project_id: ProjectId,
      sitemap_page_id: Id.nullable().optional().describe('The sitemap page it builds (default none)'),
      title: PageTitle.describe(`The page's title (at most ${TEMPLATE_PAGE_TITLE_MAX_LENGTH} characters)`),
      sections: Sections.optional().describe(`Its sections in order (at most ${TEMPLATE_PAGE_SECTIONS_MAX}; default none)`),
      images: Images.optional().describe(`Its image slots (at most ${TEMPLATE_PAGE_IMAGES_MAX}; default none)`),
      status: TemplatePageStatus.optional().describe('draft, ready, built or archived (default draft)'),
    }),
    result: TemplatePageSchema,
    async handler(ctx) {
      const p = ctx.params
      await websiteProjectForOrg(ctx.read, p.project_id, ctx.orgId)
      const { pageId } = await addTemplatePage(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        projectId: p.project_id,
        sitemap_page_id: p.sitemap_page_id ?? null,
        title: p.title,
        sections: p.sections ?? [],
        images: p.images ?? [],
        status: p.status ?? 'draft',
      })
      await ctx.settle()
      return templatePageView(await visibleTemplatePage(ctx.read, ctx.orgId, pageId))
    },
  }),
  rpc({
    name: 'update_template_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change a template page: what is given replaces what it had (sections and images as whole lists), under add_template_page's rules; a section template " +
      'retired since stays on a page that had it. An archived page moves only back to draft. The same values again change nothing. Returns the page.',
    example: {
      params: { page_id: 9, images: [{ ...exampleImages[0]!, alt: 'Service van in front of an Austin home' }, exampleImages[1]!] },
      result: examplePage,
    },
    params: z.strictObject({
      page_id: TemplatePageId,
      sitemap_page_id: Id.nullable().optional().describe('The sitemap page it builds; null: none (default: unchanged)'),
      title: PageTitle.optional().describe("The page's title (default: unchanged)"),
      sections: Sections.optional().describe('Its sections, the whole list (default: unchanged)'),
      images: Images.optional().describe('Its image slots, the whole list (default: unchanged)'),
      status: TemplatePageStatus.optional().describe('Its status (default: unchanged)'),
    }),
    result: TemplatePageSchema,
    async handler(ctx) {
      const { page_id, ...change } = ctx.params
      const page = await visibleTemplatePage(ctx.read, ctx.orgId, page_id)
      await updateTemplatePage(ctx.write, ctx.command, { callerOrgId: ctx.orgId, projectId: page.project_id, pageId: page.id, ...change })
      await ctx.settle()
      return templatePageView(await visibleTemplatePage(ctx.read, ctx.orgId, page.id))
    },
  }),
  rpc({
    name: 'get_template_images_report',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Per template page of the client's website projects (archived pages aside): its image slots, how many have an image, how many are missing, how many have an image but no alt text, and the totals.",
    example: {
      params: { client_id: 34 },
      result: {
        client_id: 34,
        pages: [{ page_id: 9, project_id: 5, title: 'Drain Cleaning', status: 'draft', ...examplePage.image_counts }],
        totals: { pages: 1, slots: 2, filled: 1, missing: 1, without_alt: 1 },
      },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z.object({
      client_id: ClientId,
      pages: z
        .array(
          z.object({
            page_id: TemplatePageId,
            project_id: ProjectId,
            title: z.string().describe("The page's title"),
            status: TemplatePageStatus.describe('draft, ready or built'),
            ...ImageCountsSchema,
          }),
        )
        .describe('One row per template page, by project then page'),
      totals: z
        .object({
          pages: z.number().int().describe('Template pages counted'),
          slots: z.number().int().describe('Image slots over them'),
          filled: z.number().int().describe('Slots with an image'),
          missing: z.number().int().describe('Slots without an image'),
          without_alt: z.number().int().describe('Slots with an image but no alt text'),
        })
        .describe('The sums over the pages'),
    }),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return templateImagesReport(ctx.read, ctx.params.client_id)
    },
  }),
]
