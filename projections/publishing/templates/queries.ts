import type { Selectable } from 'kysely'
import { type ImageCounts, imageCounts } from '../../../domain/publishing/templates/images-report.js'
import { placeholdersOf } from '../../../domain/publishing/templates/section-rules.js'
import type {
  PageImage,
  PageSection,
  SectionField,
  SectionTemplateStatus,
  TemplatePageStatus,
  TemplateRole,
} from '../../../domain/publishing/templates/values.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { SectionTemplatesTable, TemplateCatalogEntriesTable, TemplatePagesTable } from './tables.js'

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

/** A section template as the API shows it. */
export interface SectionTemplateView {
  id: number
  category: string
  name: string
  description: string
  fields: SectionField[]
  elementor_json: string
  placeholders: string[]
  version: number
  status: SectionTemplateStatus
  built_in: boolean
  created_at: string
  updated_at: string
  retired_at: string | null
}

export function sectionTemplateView(r: Selectable<SectionTemplatesTable>): SectionTemplateView {
  return {
    id: r.id,
    category: r.category,
    name: r.name,
    description: r.description,
    fields: r.fields,
    elementor_json: r.elementor_json,
    placeholders: placeholdersOf(r.elementor_json),
    version: r.version,
    status: r.status as SectionTemplateStatus,
    built_in: r.built_in,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    retired_at: iso(r.retired_at),
  }
}

/** The platform's section templates by category, then name; active ones unless includeRetired. */
export async function sectionTemplates(db: ReadDb, category: string | undefined, includeRetired: boolean): Promise<SectionTemplateView[]> {
  let query = db.selectFrom('section_templates').selectAll()
  if (category !== undefined) query = query.where('category', '=', category)
  if (!includeRetired) query = query.where('status', '=', 'active')
  return (await query.orderBy('category').orderBy('name').orderBy('id').execute()).map(sectionTemplateView)
}

/** A section template (retired too); not_found when there is none. Every key sees the platform catalog. */
export async function sectionTemplate(db: ReadDb, templateId: number): Promise<SectionTemplateView> {
  const row = await db.selectFrom('section_templates').selectAll().where('id', '=', templateId).executeTakeFirst()
  if (!row) throw new NotFoundError('section template', templateId)
  return sectionTemplateView(row)
}

/** An entry of a library client's template catalog as the API shows it. */
export interface CatalogEntryView {
  library_client_id: number
  template_id: number
  title: string
  role: TemplateRole
  tags: string[]
  thumbnail_url: string | null
  modified_gmt: string | null
  recorded_at: string
}

function catalogEntryView(r: Selectable<TemplateCatalogEntriesTable>): CatalogEntryView {
  return {
    library_client_id: r.client_id,
    template_id: r.template_id,
    title: r.title,
    role: r.role as TemplateRole,
    tags: r.tags,
    thumbnail_url: r.thumbnail_url,
    modified_gmt: r.modified_gmt,
    recorded_at: r.recorded_at.toISOString(),
  }
}

/** The library client's saved templates by role, then title; optionally of one role. */
export async function templateCatalog(db: ReadDb, libraryClientId: number, role?: TemplateRole): Promise<CatalogEntryView[]> {
  let query = db.selectFrom('template_catalog_entries').selectAll().where('client_id', '=', libraryClientId)
  if (role !== undefined) query = query.where('role', '=', role)
  return (await query.orderBy('role').orderBy('title').orderBy('template_id').execute()).map(catalogEntryView)
}

/** One entry of the library client's catalog; not_found when the library does not hold it. */
export async function templateCatalogEntry(db: ReadDb, libraryClientId: number, templateId: number): Promise<CatalogEntryView> {
  const row = await db
    .selectFrom('template_catalog_entries')
    .selectAll()
    .where('client_id', '=', libraryClientId)
    .where('template_id', '=', templateId)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('template catalog entry', templateId)
  return catalogEntryView(row)
}

/** A template page as the API shows it, with how its image slots stand. */
export interface TemplatePageView {
  id: number
  project_id: number
  client_id: number
  sitemap_page_id: number | null
  title: string
  sections: PageSection[]
  images: PageImage[]
  image_counts: ImageCounts
  status: TemplatePageStatus
  created_at: string
  updated_at: string
}

export type TemplatePageRow = Selectable<TemplatePagesTable>

export function templatePageView(r: TemplatePageRow): TemplatePageView {
  return {
    id: r.id,
    project_id: r.project_id,
    client_id: r.client_id,
    sitemap_page_id: r.sitemap_page_id,
    title: r.title,
    sections: r.sections,
    images: r.images,
    image_counts: imageCounts(r.images),
    status: r.status as TemplatePageStatus,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }
}

/** The template page if the caller may see it (null: any organization); the same not-found whether missing or foreign. */
export async function visibleTemplatePage(db: ReadDb, orgId: number | null, pageId: number): Promise<TemplatePageRow> {
  let query = db.selectFrom('template_pages').selectAll().where('id', '=', pageId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('template page', pageId)
  return row
}

/** The project's template pages, oldest first. */
export async function templatePagesForProject(db: ReadDb, projectId: number): Promise<TemplatePageView[]> {
  const rows = await db.selectFrom('template_pages').selectAll().where('project_id', '=', projectId).orderBy('id').execute()
  return rows.map(templatePageView)
}

/** get_template_images_report: per template page of the client's projects, how its image slots stand, and the totals. */
export interface TemplateImagesReport {
  client_id: number
  pages: (ImageCounts & { page_id: number; project_id: number; title: string; status: TemplatePageStatus })[]
  totals: { pages: number; slots: number; filled: number; missing: number; without_alt: number }
}

export async function templateImagesReport(db: ReadDb, clientId: number): Promise<TemplateImagesReport> {
  const rows = await db
    .selectFrom('template_pages')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('status', '!=', 'archived')
    .orderBy('project_id')
    .orderBy('id')
    .execute()
  const pages = rows.map((r) => ({
    page_id: r.id,
    project_id: r.project_id,
    title: r.title,
    status: r.status as TemplatePageStatus,
    ...imageCounts(r.images),
  }))
  const sum = (key: 'slots' | 'filled' | 'missing' | 'without_alt') => pages.reduce((n, p) => n + p[key], 0)
  return {
    client_id: clientId,
    pages,
    totals: { pages: pages.length, slots: sum('slots'), filled: sum('filled'), missing: sum('missing'), without_alt: sum('without_alt') },
  }
}
