import type { ColumnType } from 'kysely'
import type { PageImage, PageSection, SectionField } from '../../../domain/publishing/templates/values.js'

/** The templates read models as kysely sees them (DDL in migrations/read-models/publishing-templates.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

/** One row per section template of the platform catalog; a retired one keeps its row. */
export interface SectionTemplatesTable {
  id: number
  category: string
  name: string
  description: string
  fields: Json<SectionField[]>
  elementor_json: string
  version: number
  /** active or retired. */
  status: string
  built_in: boolean
  created_at: Timestamp
  updated_at: Timestamp
  retired_at: Timestamp | null
}

/** One row per saved template in a library client's catalog (a removed one's row is gone). */
export interface TemplateCatalogEntriesTable {
  /** The library client. */
  client_id: number
  template_id: number
  org_id: number
  title: string
  role: string
  tags: Json<string[]>
  thumbnail_url: string | null
  modified_gmt: string | null
  /** When it was last recorded (added or changed). */
  recorded_at: Timestamp
}

/** One row per template page of a project. */
export interface TemplatePagesTable {
  id: number
  org_id: number
  /** The project's client. */
  client_id: number
  project_id: number
  sitemap_page_id: number | null
  title: string
  sections: Json<PageSection[]>
  images: Json<PageImage[]>
  status: string
  created_at: Timestamp
  updated_at: Timestamp
}

/** The templates sub-area's read models as kysely sees them. */
export interface TemplatesReadModels {
  section_templates: SectionTemplatesTable
  template_catalog_entries: TemplateCatalogEntriesTable
  template_pages: TemplatePagesTable
}
