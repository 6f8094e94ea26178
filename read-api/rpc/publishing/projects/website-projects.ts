import { z } from 'zod'
import {
  addWebsiteProject,
  setWebsiteProjectStatus,
  updateWebsiteProject,
} from '../../../../commands/publishing/projects/website-projects.js'
import { WebsiteUrl } from '../../../../domain/clients/values.js'
import {
  PROJECT_NAME_MAX_LENGTH,
  PROJECT_NOTES_MAX_LENGTH,
  PROJECT_KINDS,
  PROJECT_STATUSES,
} from '../../../../domain/publishing/projects/values.js'
import { visibleClient } from '../../../../projections/clients/queries.js'
import { projectsForClient, websiteProjectForOrg, websiteProjectView } from '../../../../projections/publishing/projects/queries.js'
import type { ReadDb } from '../../../../projections/tables.js'
import { requireOrgId } from '../../../caller.js'
import { rpc, type AnyRpc } from '../../../registry.js'
import { ClientId } from '../../ids.js'
import { domain, ProjectId } from './ids.js'

const Kind = z.enum(PROJECT_KINDS).describe('new_site (a site built from nothing) or rebuild (an existing site rebuilt)')
const Status = z
  .enum(PROJECT_STATUSES)
  .describe('planning, building, review, live or archived (finished with or abandoned; read-only until set back to planning)')
const Name = z
  .string()
  .trim()
  .min(1)
  .max(PROJECT_NAME_MAX_LENGTH)
  .describe(`The project's name (at most ${PROJECT_NAME_MAX_LENGTH} characters)`)
const Notes = z
  .string()
  .max(PROJECT_NOTES_MAX_LENGTH)
  .nullable()
  .describe(`Free notes for the people building the site (at most ${PROJECT_NOTES_MAX_LENGTH} characters); null: none`)
const SiteUrl = WebsiteUrl.nullable().describe("The site's address once live (an absolute http(s) URL); null: none yet")
const StagingUrl = WebsiteUrl.nullable().describe('Where the site is built before it goes live (an absolute http(s) URL); null: none')
const LibraryClientId = ClientId.nullable().describe(
  "The organization's client whose WordPress holds the saved Elementor templates the project is built from (list_template_catalog); null: none",
)

export const WebsiteProjectSchema = z
  .object({
    id: ProjectId,
    org_id: z.number().int().describe('The organization it belongs to'),
    client_id: ClientId,
    name: z.string().describe("The project's name"),
    kind: Kind,
    status: Status,
    site_url: z.string().nullable().describe("The site's address; null: none yet"),
    staging_url: z.string().nullable().describe('The staging address; null: none'),
    library_client_id: z.number().int().nullable().describe('The template library client; null: none'),
    notes: z.string().nullable().describe('Free notes; null: none'),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
    status_changed_at: z.string().describe('When it entered its current status (ISO 8601)'),
  })
  .describe('A website project: a site being built or rebuilt for a client')

export const exampleProject = {
  id: 5,
  org_id: 1,
  client_id: 34,
  name: 'Acme Plumbing site rebuild',
  kind: 'rebuild' as const,
  status: 'building' as const,
  site_url: 'https://acmeplumbing.com',
  staging_url: 'https://staging.acmeplumbing.com',
  library_client_id: 12,
  notes: 'Keep the emergency phone number in the header on every page.',
  created_at: '2026-11-02T09:00:00.000Z',
  updated_at: '2026-11-05T14:30:00.000Z',
  status_changed_at: '2026-11-05T14:30:00.000Z',
}

const ProjectInput = z
  .strictObject({
    client_id: ClientId.describe("The organization's client the site is for (not deleted)"),
    name: Name,
    kind: Kind.default('rebuild').describe('new_site or rebuild (default rebuild)'),
    status: Status.default('planning').describe('Where the project starts (default planning)'),
    site_url: SiteUrl.optional().describe("The site's address (default: the client's website_url; null: none yet)"),
    staging_url: StagingUrl.default(null).describe('The staging address (default none)'),
    library_client_id: LibraryClientId.default(null).describe('The template library client (default none)'),
    notes: Notes.default(null).describe('Free notes (default none)'),
  })
  .describe('The project to add')

async function settledProject(ctx: { read: ReadDb; orgId: number | null; settle: () => Promise<void> }, projectId: number) {
  await ctx.settle()
  return websiteProjectView(await websiteProjectForOrg(ctx.read, projectId, ctx.orgId))
}

export const websiteProjectRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'add_website_project',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Add a website project (a site being built or rebuilt) for one of the organization's clients (not deleted: 409 client_deleted). " +
      "site_url defaults to the client's website; library_client_id, when given, must be the organization's client. Returns the new project id.",
    example: {
      params: {
        project: {
          client_id: 34,
          name: 'Acme Plumbing site rebuild',
          kind: 'rebuild',
          staging_url: 'https://staging.acmeplumbing.com',
          library_client_id: 12,
          notes: 'Keep the emergency phone number in the header on every page.',
        },
      },
      result: 5,
    },
    params: z.strictObject({ project: ProjectInput }),
    result: ProjectId.describe('The new project id'),
    async handler(ctx) {
      const p = ctx.params.project
      const { projectId } = await addWebsiteProject(ctx.write, ctx.command, {
        orgId: requireOrgId(ctx.orgId),
        clientId: p.client_id,
        status: p.status,
        fields: {
          name: p.name,
          kind: p.kind,
          ...(p.site_url === undefined ? {} : { site_url: p.site_url }),
          staging_url: p.staging_url,
          library_client_id: p.library_client_id,
          notes: p.notes,
        },
      })
      return projectId
    },
  }),
  rpc({
    name: 'update_website_project',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Change a project: the fields given replace its own, the others stay (null clears an optional one). An archived project answers ' +
      '409 website_project_archived. Returns the project.',
    example: {
      params: { project_id: 5, staging_url: 'https://new-staging.acmeplumbing.com' },
      result: { ...exampleProject, staging_url: 'https://new-staging.acmeplumbing.com' },
    },
    params: z.strictObject({
      project_id: ProjectId,
      name: Name.optional(),
      kind: Kind.optional(),
      site_url: SiteUrl.optional(),
      staging_url: StagingUrl.optional(),
      library_client_id: LibraryClientId.optional(),
      notes: Notes.optional(),
    }),
    result: WebsiteProjectSchema,
    async handler(ctx) {
      const { project_id, ...changes } = ctx.params
      const project = await websiteProjectForOrg(ctx.read, project_id, ctx.orgId)
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))
      await updateWebsiteProject(ctx.write, ctx.command, { orgId: project.org_id, projectId: project.id, changes: defined })
      return settledProject(ctx, project.id)
    },
  }),
  rpc({
    name: 'set_website_project_status',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Move a project to another stage: one step forward or back along planning → building → review → live, to archived from any ' +
      'stage, and from archived back to planning (409 website_project_status_invalid otherwise, naming the allowed moves). Its own ' +
      'status changes nothing. Returns the project.',
    example: { params: { project_id: 5, status: 'review' }, result: { ...exampleProject, status: 'review' } },
    params: z.strictObject({ project_id: ProjectId, status: Status }),
    result: WebsiteProjectSchema,
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      await setWebsiteProjectStatus(ctx.write, ctx.command, { orgId: project.org_id, projectId: project.id, status: ctx.params.status })
      return settledProject(ctx, project.id)
    },
  }),
  rpc({
    name: 'get_website_project',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "One website project. Another organization's answers 404 like a missing one.",
    example: { params: { project_id: 5 }, result: exampleProject },
    params: z.strictObject({ project_id: ProjectId }),
    result: WebsiteProjectSchema,
    async handler(ctx) {
      return websiteProjectView(await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId))
    },
  }),
  rpc({
    name: 'get_projects_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's website projects, archived ones included, newest first.",
    example: { params: { client_id: 34 }, result: [exampleProject] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(WebsiteProjectSchema).describe('The projects, newest first'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return projectsForClient(ctx.read, client.id)
    },
  }),
]
