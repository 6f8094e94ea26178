import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { PROJECT_NAME_MAX_LENGTH, PROJECT_NOTES_MAX_LENGTH, PROJECT_URL_MAX_LENGTH, ProjectKind, ProjectStatus } from './values.js'

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

export const websiteProjectsEventSchemas = {
  WebsiteProjectAdded,
  WebsiteProjectUpdated,
  WebsiteProjectStatusChanged,
} as const

type Schemas = typeof websiteProjectsEventSchemas
export type WebsiteProjectsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type WebsiteProjectEvent = WebsiteProjectsEvent
