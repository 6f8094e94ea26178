import { z } from 'zod'
import { createOrganization, updateOrganizationBranding } from '../../commands/organizations.js'
import { AccentColor, LogoUrl, type Branding } from '../../domain/organizations/branding.js'
import { brandingOf } from '../../projections/aeo/reports/queries.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { Id, Name } from '../../domain/shared/values.js'
import { requireOrgId } from '../caller.js'
import { rpc } from '../registry.js'

const domain = 'org-admin'

const OrganizationView = z.object({ id: Id, name: z.string(), created_at: z.string() })

/** Branding as reports use it: name is the brand name if set, else the organization's name. */
const BrandingView = z.object({
  org_id: Id,
  name: z.string(),
  brand_name: z.string().nullable(),
  logo_url: z.string().nullable(),
  accent_color: z.string().nullable(),
})

const brandingView = (orgId: number, orgName: string, branding: Branding) => ({
  org_id: orgId,
  name: branding.name ?? orgName,
  brand_name: branding.name,
  logo_url: branding.logo_url,
  accent_color: branding.accent_color,
})

export const organizationRpcs = [
  rpc({
    name: 'create_organization',
    domain,
    access: 'write',
    orgScoped: false,
    platformOnly: true,
    summary: 'Create an organization (a tenant). Platform keys only. Returns the new organization id.',
    example: { params: { name: 'Northwind Marketing' }, result: 12 },
    params: z.strictObject({ name: Name.describe("The organization's name, 1 to 200 characters") }),
    result: Id,
    handler: async (ctx) => (await createOrganization(ctx.write, ctx.command, { name: ctx.params.name })).orgId,
  }),
  rpc({
    name: 'get_organization',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The caller's organization (platform keys pass org_id).",
    example: { params: {}, result: { id: 12, name: 'Northwind Marketing', created_at: '2026-03-02T15:04:05.000Z' } },
    params: z.strictObject({}),
    result: OrganizationView,
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const row = await ctx.read.selectFrom('organizations').select(['id', 'name', 'created_at']).where('id', '=', orgId).executeTakeFirst()
      if (!row) throw new NotFoundError('organization', orgId)
      return { id: row.id, name: row.name, created_at: row.created_at.toISOString() }
    },
  }),
  rpc({
    name: 'update_organization_branding',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Set the white-label branding AI Visibility reports carry: name, logo_url (https) and accent_color (#rrggbb). ' +
      'Only the given fields change; null clears one. Returns the branding.',
    example: {
      params: { name: 'Northwind Digital', logo_url: 'https://northwind.example/logo.png', accent_color: '#1a73e8' },
      result: {
        org_id: 12,
        name: 'Northwind Digital',
        brand_name: 'Northwind Digital',
        logo_url: 'https://northwind.example/logo.png',
        accent_color: '#1a73e8',
      },
    },
    params: z.strictObject({
      name: Name.nullable()
        .optional()
        .describe("The name reports show instead of the organization's own, 1 to 200 characters; null: the organization's name"),
      logo_url: LogoUrl.nullable().optional().describe('An https URL of the logo reports show, at most 2000 characters; null: no logo'),
      accent_color: AccentColor.nullable().optional().describe("The reports' accent color as #rrggbb; null: the default color"),
    }),
    result: BrandingView,
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const changes: { name?: string | null; logo_url?: string | null; accent_color?: string | null } = {}
      if (ctx.params.name !== undefined) changes.name = ctx.params.name
      if (ctx.params.logo_url !== undefined) changes.logo_url = ctx.params.logo_url
      if (ctx.params.accent_color !== undefined) changes.accent_color = ctx.params.accent_color
      const outcome = await updateOrganizationBranding(ctx.write, ctx.command, { orgId, changes })
      return brandingView(orgId, outcome.name, outcome.branding)
    },
  }),
  rpc({
    name: 'get_organization_branding',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The organization's white-label branding (name falls back to the organization's name).",
    example: { params: {}, result: { org_id: 12, name: 'Northwind Marketing', brand_name: null, logo_url: null, accent_color: null } },
    params: z.strictObject({}),
    result: BrandingView,
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const found = await brandingOf(ctx.read, orgId)
      if (!found) throw new NotFoundError('organization', orgId)
      return brandingView(orgId, found.name, found.branding)
    },
  }),
]
