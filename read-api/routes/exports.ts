import type { Kysely } from 'kysely'
import type { WorkTables } from '../../migrations/work-tables.js'
import { z } from 'zod'
import type { WriteDeps } from '../../commands/command-handler.js'
import type { BlobStore } from '../../commands/files/blob-store.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { EXPORT_FILENAME } from '../../domain/exports/org-export.js'
import { Id } from '../../domain/shared/values.js'
import { findKeptExport } from '../../projections/exports/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope } from '../caller.js'
import { ApiError } from '../errors.js'
import { route, type RouteGroup } from '../platform/route.js'

export interface ExportRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly db: Kysely<WorkTables>
  readonly blobs?: BlobStore
}

const ExportParams = z.object({
  org_id: z.string().meta({ type: 'integer', minimum: 1 }).describe('The organization that made the export'),
  filename: z.string().describe('The zip file name from result.download_url'),
})

/**
 * GET /api/v1/exports/<org_id>/<filename>: an organization export zip (export_org's result.download_url),
 * streamed from the blob store. The organization's own keys only (the sandbox key too, for its own
 * exports); platform keys may fetch any. An export of another organization, an expired one (spec: kept 7
 * days; the spec's error table has no code for "gone", so 404) and a missing one all answer the same 404,
 * a malformed org_id or filename included.
 */
export const downloadExportRoute = route<ExportRouteDeps, typeof ExportParams>({
  method: 'GET',
  path: '/api/v1/exports/:org_id/:filename',
  operationId: 'download_export',
  summary: 'Download an organization export zip',
  description:
    "Produced by an export_org job (result.download_url; list_org_exports lists them); kept 7 days. A zip of every table of the organization as tables/<t>.json and tables/<t>.csv, the filed reports under reports/, and manifest.json (tables, row counts, sha256 per file, created_at, the log position it reflects); secrets excluded. The same organization's key (or a platform key) is required: another organization's export, an expired one and a missing one all answer 404 not_found. Served as an attachment (Content-Disposition), with Content-Length and an ETag (its sha256).",
  tag: 'exports',
  auth: 'bearer',
  scopes: ['read'],
  params: ExportParams,
  responses: {
    200: {
      description: 'The zip.',
      type: 'application/zip',
      schema: z.string().meta({ format: 'binary' }).describe('The archive'),
      headers: { 'Content-Disposition': 'attachment; filename="<filename>"', ETag: "The archive's sha256" },
    },
  },
  example: { params: { org_id: 12, filename: 'org-12-20260302T091509Z-job-77.zip' } },
  handler: async ({ request, reply, deps, input }) => {
    const blobs = deps.blobs ?? new PostgresBlobStore(deps.db, deps.write.clock)
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const { org_id: rawOrg, filename } = input.params()
    // One answer for every way of not getting the file, so nothing about other organizations leaks.
    const notFound = () =>
      new ApiError(
        'not_found',
        'no such export',
        'Exports are kept 7 days and only the organization that made one can download it; list_org_exports shows yours',
      )
    const orgId = Id.safeParse(Number(rawOrg))
    if (!/^[1-9][0-9]*$/.test(rawOrg) || !orgId.success || !EXPORT_FILENAME.test(filename)) throw notFound()
    if (caller.orgId !== null && caller.orgId !== orgId.data) throw notFound()
    const record = await findKeptExport(deps.read, orgId.data, filename, deps.write.clock())
    if (!record) throw notFound()
    const opened = await blobs.open(record.path)
    if (!opened) throw notFound()
    if (opened.info.orgId !== orgId.data) {
      opened.body.destroy()
      throw notFound()
    }
    reply.header('Content-Type', 'application/zip')
    reply.header('Content-Disposition', `attachment; filename="${filename}"`)
    reply.header('Content-Length', String(opened.info.bytes))
    reply.header('ETag', `"${opened.info.sha256}"`)
    reply.header('Cache-Control', 'private, no-store')
    reply.header('X-Content-Type-Options', 'nosniff')
    return reply.send(opened.body)
  },
})

export const exportRoutes: RouteGroup<ExportRouteDeps> = { routes: [downloadExportRoute] }
