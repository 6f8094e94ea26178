import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { WebsiteProjectEvent } from './events.js'
import { decideSitemapPage, evolveSitemap, type SitemapPageCommand } from './sitemap-decisions.js'
import type { SitemapPageRecord } from './sitemap-tree.js'
import { canMoveProject, projectMovesFrom } from './status-flow.js'
import type { ProjectKind, ProjectStatus } from './values.js'

/**
 * A website project: one stream per project, `website_project-<project_id>`, holding the project and its
 * sitemap pages, so a page's slug (unique in the project) and the tree (no cycles) are decided against every
 * page at once. The project's client never changes (a project is about one client's site), so every event
 * carries it for the read models. Generated content and Elementor pages have streams of their own.
 */
export const websiteProjectStream = (projectId: number) => `website_project-${projectId}`

export interface ProjectFields {
  readonly name: string
  readonly kind: ProjectKind
  readonly site_url: string | null
  readonly staging_url: string | null
  readonly library_client_id: number | null
  readonly notes: string | null
}

export interface WebsiteProjectState {
  /** 0: no project in this stream. */
  readonly projectId: number
  readonly orgId: number
  readonly clientId: number
  readonly status: ProjectStatus
  readonly fields: ProjectFields
  /** Every page ever added, deleted ones marked, in the order they were added. */
  readonly pages: readonly SitemapPageRecord[]
}

export type WebsiteProjectCommand =
  | { type: 'AddProject'; project_id: number; org_id: number; client_id: number; status: ProjectStatus; fields: ProjectFields }
  | { type: 'UpdateProject'; project_id: number; fields: ProjectFields }
  | { type: 'SetProjectStatus'; project_id: number; status: ProjectStatus }
  | SitemapPageCommand

const initialState = (): WebsiteProjectState => ({
  projectId: 0,
  orgId: 0,
  clientId: 0,
  status: 'planning',
  fields: { name: '', kind: 'rebuild', site_url: null, staging_url: null, library_client_id: null, notes: null },
  pages: [],
})

const fieldsOf = (d: ProjectFields): ProjectFields => ({
  name: d.name,
  kind: d.kind,
  site_url: d.site_url,
  staging_url: d.staging_url,
  library_client_id: d.library_client_id,
  notes: d.notes,
})

const sameFields = (a: ProjectFields, b: ProjectFields) =>
  a.name === b.name &&
  a.kind === b.kind &&
  a.site_url === b.site_url &&
  a.staging_url === b.staging_url &&
  a.library_client_id === b.library_client_id &&
  a.notes === b.notes

/** The project: not_found when this stream holds none. */
export function existingProject(state: WebsiteProjectState, projectId: number): WebsiteProjectState {
  if (state.projectId === 0) throw new NotFoundError('website project', projectId)
  return state
}

/** The project, not archived: an archived project is read-only until set back to planning. */
export function openProject(state: WebsiteProjectState, projectId: number): WebsiteProjectState {
  existingProject(state, projectId)
  if (state.status === 'archived') {
    throw new DomainError('website_project_archived', 'The website project is archived', `website project ${projectId}`)
  }
  return state
}

function evolve(state: WebsiteProjectState, event: WebsiteProjectEvent): WebsiteProjectState {
  switch (event.type) {
    case 'WebsiteProjectAdded': {
      const d = event.data
      return { projectId: d.project_id, orgId: d.org_id, clientId: d.client_id, status: d.status, fields: fieldsOf(d), pages: [] }
    }
    case 'WebsiteProjectUpdated':
      return { ...state, fields: fieldsOf(event.data) }
    case 'WebsiteProjectStatusChanged':
      return { ...state, status: event.data.to }
    case 'SitemapPageAdded':
    case 'SitemapPageUpdated':
    case 'SitemapPageStatusChanged':
    case 'SitemapPageDeleted':
      return { ...state, pages: evolveSitemap(state.pages, event) }
    default:
      return assertNever(event)
  }
}

function decide(command: WebsiteProjectCommand, state: WebsiteProjectState): WebsiteProjectEvent[] {
  switch (command.type) {
    case 'AddProject': {
      // The id was allocated for this request: a stream holding it means a retried request already added it.
      if (state.projectId !== 0) return []
      return [
        {
          type: 'WebsiteProjectAdded',
          data: {
            project_id: command.project_id,
            org_id: command.org_id,
            client_id: command.client_id,
            status: command.status,
            ...fieldsOf(command.fields),
          },
        },
      ]
    }
    case 'UpdateProject': {
      openProject(state, command.project_id)
      if (sameFields(state.fields, command.fields)) return [] // nothing changes: nothing recorded
      return [
        { type: 'WebsiteProjectUpdated', data: { project_id: state.projectId, client_id: state.clientId, ...fieldsOf(command.fields) } },
      ]
    }
    case 'SetProjectStatus': {
      existingProject(state, command.project_id)
      if (state.status === command.status) return []
      if (!canMoveProject(state.status, command.status)) {
        throw new DomainError(
          'website_project_status_invalid',
          'The website project cannot move to that status from its current one',
          `website project ${state.projectId} is ${state.status}; it can move to ${projectMovesFrom(state.status).join(', ')}`,
        )
      }
      return [
        {
          type: 'WebsiteProjectStatusChanged',
          data: { project_id: state.projectId, client_id: state.clientId, from: state.status, to: command.status },
        },
      ]
    }
    case 'AddSitemapPage':
    case 'UpdateSitemapPage':
    case 'SetSitemapPageStatus':
    case 'DeleteSitemapPage':
      // The sitemap of an archived project is read-only, as the project is.
      openProject(state, command.project_id)
      return decideSitemapPage(command, state)
    default:
      return assertNever(command)
  }
}

export const websiteProject: Aggregate<WebsiteProjectState, WebsiteProjectCommand, WebsiteProjectEvent> = {
  streamOf: websiteProjectStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => (state.orgId === 0 ? null : state.orgId),
  entity: 'website project',
}
