import { z } from 'zod'
import { listOrgExports } from '../../projections/exports/queries.js'
import { requireOrgId } from '../caller.js'
import { rpc } from '../registry.js'

const domain = 'exports'

export const OrgExportView = z.object({
  filename: z.string().describe('The zip file name'),
  size: z.number().int().describe('Bytes'),
  created_at: z.string().describe('When it was produced (ISO 8601)'),
  expires_at: z.string().describe('When it stops being kept: 7 days after created_at'),
  download_url: z.string().describe('GET it with the same organization key (relative to the base URL)'),
})

export const exportRpcs = [
  rpc({
    name: 'list_org_exports',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's export zips still kept (export_org jobs; 7 days each), newest first: filename, size, created_at, expires_at and download_url. A platform key passes org_id.",
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(OrgExportView),
    handler: async ({ orgId, read, write }) => listOrgExports(read, requireOrgId(orgId), write.clock()),
  }),
]
