import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { elementorPageEventSchemas } from './elementor-events.js'
import {
  CONTENT_BODY_MAX_LENGTH,
  CONTENT_WRITER_MAX_LENGTH,
  ContentKind,
  PROJECT_NAME_MAX_LENGTH,
  PROJECT_NOTES_MAX_LENGTH,
  PROJECT_URL_MAX_LENGTH,
  ProjectKind,
  ProjectStatus,
  SITEMAP_KEYWORD_MAX_LENGTH,
  SITEMAP_TITLE_MAX_LENGTH,
  SitemapPageStatus,
  SitemapPageType,
} from './values.js'

/**
 * Website projects (issue 27). A project lives in its own stream, `website_project-<project_id>`, with
 * its sitemap pages: a page's slug is unique in its project and the pages form a tree, both decided
 * against every page of the project at once.
 */

const Url = z.string().max(PROJECT_URL_MAX_LENGTH)

/** The fields add_website_project sets and update_website_project replaces (absolute values). */
const ProjectFields = {
  name: z.string().min(1).max(PROJECT_NAME_MAX_LENGTH),
  kind: ProjectKind,
  site_url: Url.nullable(),
  staging_url: Url.nullable(),
  /** The client whose WordPress holds the saved Elementor templates the project is built from (templates sub-area). */
  library_client_id: Id.nullable(),
  notes: z.string().max(PROJECT_NOTES_MAX_LENGTH).nullable(),
}

/** add_website_project. */
export const WebsiteProjectAdded = z.object({ project_id: Id, org_id: Id, client_id: Id, status: ProjectStatus, ...ProjectFields })

/** update_website_project: every editable field with its value after the change. */
export const WebsiteProjectUpdated = z.object({ project_id: Id, client_id: Id, ...ProjectFields })

/** set_website_project_status. */
export const WebsiteProjectStatusChanged = z.object({ project_id: Id, client_id: Id, from: ProjectStatus, to: ProjectStatus })

/** The fields add_sitemap_page sets and update_sitemap_page replaces (absolute values). */
const SitemapPageFields = {
  title: z.string().min(1).max(SITEMAP_TITLE_MAX_LENGTH),
  /** Unique among the project's live pages; '' is the home page's (the site's root). */
  slug: z.string().max(200),
  /** null: a top-level page. */
  parent_id: Id.nullable(),
  page_type: SitemapPageType,
  /** Order among its siblings (lower first). */
  position: z.number().int().min(0),
  primary_keyword: z.string().max(SITEMAP_KEYWORD_MAX_LENGTH).nullable(),
}

/** add_sitemap_page. */
export const SitemapPageAdded = z.object({ project_id: Id, client_id: Id, page_id: Id, status: SitemapPageStatus, ...SitemapPageFields })

/** update_sitemap_page: every editable field with its value after the change. */
export const SitemapPageUpdated = z.object({ project_id: Id, client_id: Id, page_id: Id, ...SitemapPageFields })

/** set_sitemap_page_status; wp_post_id is the page's post on the site once published (null until then). */
export const SitemapPageStatusChanged = z.object({
  project_id: Id,
  client_id: Id,
  page_id: Id,
  from: SitemapPageStatus,
  to: SitemapPageStatus,
  wp_post_id: Id.nullable(),
})

/** delete_sitemap_page: a soft delete (one event per page, children first when deleted with it); the slug is free again. */
export const SitemapPageDeleted = z.object({ project_id: Id, client_id: Id, page_id: Id })

/**
 * record_generated_content, on the project's content stream `website_project_content-<project_id>` (apart from
 * the project's own: content is large and written often, and no sitemap rule depends on it). `version` counts
 * the page's content of this kind from 1; the highest is current. `writer`: 'built-in' or a model's name.
 */
export const GeneratedContentRecorded = z.object({
  project_id: Id,
  client_id: Id,
  content_id: Id,
  sitemap_page_id: Id,
  kind: ContentKind,
  version: z.number().int().min(1),
  body: z.string().max(CONTENT_BODY_MAX_LENGTH),
  writer: z.string().min(1).max(CONTENT_WRITER_MAX_LENGTH),
})

/** mark_content_exported: these contents (not exported before) were exported to a file or the console. */
export const GeneratedContentExported = z.object({ project_id: Id, client_id: Id, content_ids: z.array(Id).min(1) })

/** mark_content_pushed: the content was put on the client's WordPress, in this post. */
export const GeneratedContentPushed = z.object({ project_id: Id, client_id: Id, content_id: Id, wp_post_id: Id })

export const websiteProjectsEventSchemas = {
  WebsiteProjectAdded,
  WebsiteProjectUpdated,
  WebsiteProjectStatusChanged,
  SitemapPageAdded,
  SitemapPageUpdated,
  SitemapPageStatusChanged,
  SitemapPageDeleted,
  GeneratedContentRecorded,
  GeneratedContentExported,
  GeneratedContentPushed,
  ...elementorPageEventSchemas,
} as const

type Schemas = typeof websiteProjectsEventSchemas
export type WebsiteProjectsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type WebsiteProjectEvent = Extract<
  WebsiteProjectsEvent,
  {
    type:
      | 'WebsiteProjectAdded'
      | 'WebsiteProjectUpdated'
      | 'WebsiteProjectStatusChanged'
      | 'SitemapPageAdded'
      | 'SitemapPageUpdated'
      | 'SitemapPageStatusChanged'
      | 'SitemapPageDeleted'
  }
>
export type GeneratedContentEvent = Extract<WebsiteProjectsEvent, { type: `GeneratedContent${string}` }>
export type SitemapPageEvent = Extract<WebsiteProjectEvent, { type: `SitemapPage${string}` }>
