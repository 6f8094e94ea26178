import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
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

export interface ExportRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly db: Kysely<any>
  readonly blobs?: BlobStore
}

/**
 * GET /api/v1/exports/<org_id>/<filename>: an organization export zip (export_org's result.download_url),
 * streamed from the blob store. The organization's own keys only (the sandbox key too, for its own
 * exports); platform keys may fetch any. An export of another organization, an expired one (spec: kept 7
 * days; the spec's error table has no code for "gone", so 404) and a missing one all answer the same 404.
 */
export async function exportRoutes(app: FastifyInstance, deps: ExportRouteDeps): Promise<void> {
  const blobs = deps.blobs ?? new PostgresBlobStore(deps.db, deps.write.clock)
  app.get<{ Params: { org_id: string; filename: string } }>('/api/v1/exports/:org_id/:filename', async (request, reply) => {
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const { org_id: rawOrg, filename } = request.params
    // One answer for every way of not getting the file, so nothing about other organizations leaks.
    const notFound = () => new ApiError('not_found', 'no such export', 'Exports are kept 7 days and only the organization that made one can download it; list_org_exports shows yours')
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
  })
}
