import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { BlobStore } from '../../commands/files/blob-store.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope } from '../caller.js'
import { ApiError } from '../errors.js'

export interface FileRouteDeps {
  readonly read: ReadDb
  /** The database holding the blob store's tables (public schema). */
  readonly db: Kysely<any>
  /** The blob store files are served from (default: PostgreSQL over `db`). */
  readonly blobs?: BlobStore
}

/**
 * Served files are HTML the service rendered from customer data: sandboxed (no script, no same-origin
 * access, no fetches but inline styles) so that even a rendering bug cannot run in the API's origin.
 */
const FILE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"

/** The ETag of a file: its sha256, strong. */
const etagOf = (sha256: string) => `"${sha256}"`

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag)
}

/**
 * GET /api/v1/files/<path>: a generated file (a filed report, …), streamed from the blob store with its
 * content type, length and ETag (sha256). Bearer key with the read scope; a file of another organization
 * answers exactly like a missing one (platform keys see every file).
 */
export async function fileRoutes(app: FastifyInstance, deps: FileRouteDeps): Promise<void> {
  const blobs = deps.blobs ?? new PostgresBlobStore(deps.db)
  app.get<{ Params: { '*': string } }>('/api/v1/files/*', async (request, reply) => {
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const path = request.params['*']
    const notFound = () => new ApiError('not_found', `no file at ${path.slice(0, 300)}`, 'Check the path; files of other organizations are not visible')
    const opened = await blobs.open(path)
    if (!opened) throw notFound()
    const { info, body } = opened
    if (caller.orgId !== null && info.orgId !== caller.orgId) {
      body.destroy()
      throw notFound()
    }
    const etag = etagOf(info.sha256)
    reply.header('ETag', etag)
    reply.header('Cache-Control', 'private, no-cache')
    reply.header('X-Content-Type-Options', 'nosniff')
    reply.header('Content-Security-Policy', FILE_CSP)
    if (matchesEtag(request.headers['if-none-match'], etag)) {
      body.destroy()
      return reply.code(304).send()
    }
    reply.header('Content-Type', info.contentType)
    reply.header('Content-Length', String(info.bytes))
    return reply.send(body)
  })
}
