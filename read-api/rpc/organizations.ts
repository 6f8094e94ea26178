import { z } from 'zod'
import { createOrganization } from '../../commands/organizations.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { Id, Name } from '../../domain/shared/values.js'
import { requireOrgId } from '../caller.js'
import { rpc } from '../registry.js'

const domain = 'org-admin'

const OrganizationView = z.object({ id: Id, name: z.string(), created_at: z.string() })

export const organizationRpcs = [
  rpc({
    name: 'create_organization',
    domain,
    access: 'write',
    orgScoped: false,
    platformOnly: true,
    summary: 'Create an organization (a tenant). Platform keys only. Returns the new organization id.',
    params: z.strictObject({ name: Name }),
    result: Id,
    handler: async (ctx) => (await createOrganization(ctx.write, ctx.command, { name: ctx.params.name })).orgId,
  }),
  rpc({
    name: 'get_organization',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The caller's organization (platform keys pass org_id).",
    params: z.strictObject({}),
    result: OrganizationView,
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const row = await ctx.read.selectFrom('organizations').select(['id', 'name', 'created_at']).where('id', '=', orgId).executeTakeFirst()
      if (!row) throw new NotFoundError('organization', orgId)
      return { id: row.id, name: row.name, created_at: row.created_at.toISOString() }
    },
  }),
]
