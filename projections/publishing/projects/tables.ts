import type { ColumnType } from 'kysely'

/** The website projects sub-area's read models as kysely sees them (DDL in migrations/read-models/publishing-projects.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per website project. */
export interface WebsiteProjectsTable {
  id: number
  org_id: number
  client_id: number
  name: string
  kind: string
  status: string
  site_url: string | null
  staging_url: string | null
  library_client_id: number | null
  notes: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** When it entered its current status (its creation for a project never moved). */
  status_changed_at: Timestamp
}

/** One row per sitemap page; a deleted page keeps its row (deleted_at set). */
export interface SitemapPagesTable {
  id: number
  project_id: number
  org_id: number
  client_id: number
  title: string
  slug: string
  parent_id: number | null
  page_type: string
  position: number
  primary_keyword: string | null
  status: string
  wp_post_id: number | null
  created_at: Timestamp
  updated_at: Timestamp
  status_changed_at: Timestamp
  deleted_at: Timestamp | null
}

/** One row per version of a sitemap page's generated content. */
export interface GeneratedContentTable {
  id: number
  project_id: number
  sitemap_page_id: number
  org_id: number
  client_id: number
  kind: string
  version: number
  /** The highest version of its page and kind. */
  is_current: boolean
  body: string
  writer: string
  created_at: Timestamp
  exported_at: Timestamp | null
  pushed_at: Timestamp | null
  wp_post_id: number | null
}

/** One row per Elementor page present on the project's site (a removed page's row is deleted). */
export interface ElementorPagesTable {
  project_id: number
  wp_post_id: number
  org_id: number
  client_id: number
  title: string
  slug: string | null
  status: string | null
  link: string | null
  /** WordPress's modified_gmt, as the site gave it (`YYYY-MM-DDTHH:MM:SS`, UTC). */
  modified_gmt: string
  elementor_data: string
  elementor_data_sha256: string
  elementor_data_bytes: number
  /** widgetType → count, as JSON. */
  widget_counts: ColumnType<Record<string, number>, string, string>
  recorded_at: Timestamp
}

export interface WebsiteProjectsReadModels {
  website_projects: WebsiteProjectsTable
  sitemap_pages: SitemapPagesTable
  generated_content: GeneratedContentTable
  elementor_pages: ElementorPagesTable
}
