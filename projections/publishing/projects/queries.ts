import type { Selectable } from 'kysely'
import type { ProjectKind, ProjectStatus } from '../../../domain/publishing/projects/values.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { WebsiteProjectsTable } from './tables.js'

export type WebsiteProjectRow = Selectable<WebsiteProjectsTable>

/** A website project as the API shows it (get_website_project, get_projects_for_client). */
export interface WebsiteProjectView {
  id: number
  org_id: number
  client_id: number
  name: string
  kind: ProjectKind
  status: ProjectStatus
  site_url: string | null
  staging_url: string | null
  library_client_id: number | null
  notes: string | null
  created_at: string
  updated_at: string
  status_changed_at: string
}

export function websiteProjectView(r: WebsiteProjectRow): WebsiteProjectView {
  return {
    id: r.id,
    org_id: r.org_id,
    client_id: r.client_id,
    name: r.name,
    kind: r.kind as ProjectKind,
    status: r.status as ProjectStatus,
    site_url: r.site_url,
    staging_url: r.staging_url,
    library_client_id: r.library_client_id,
    notes: r.notes,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    status_changed_at: r.status_changed_at.toISOString(),
  }
}

/**
 * The project if `orgId` may see it (null: a platform caller, any organization); otherwise not_found, the
 * same for a missing and a foreign project. What every method naming a project reads first (template pages too).
 */
export async function websiteProjectForOrg(read: ReadDb, projectId: number, orgId: number | null): Promise<WebsiteProjectRow> {
  let query = read.selectFrom('website_projects').selectAll().where('id', '=', projectId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('website project', projectId)
  return row
}

/** The client's projects, newest first. */
export async function projectsForClient(read: ReadDb, clientId: number): Promise<WebsiteProjectView[]> {
  const rows = await read.selectFrom('website_projects').selectAll().where('client_id', '=', clientId).orderBy('id', 'desc').execute()
  return rows.map(websiteProjectView)
}
