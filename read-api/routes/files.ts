import type { Kysely } from 'kysely'
import type { WorkTables } from '../../migrations/work-tables.js'
import { z } from 'zod'
import type { BlobStore } from '../../commands/files/blob-store.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope } from '../caller.js'
import { ApiError } from '../errors.js'
import { route, type RouteGroup } from '../platform/route.js'

export interface FileRouteDeps {
  readonly read: ReadDb
  /** The database holding the blob store's tables (public schema). */
  readonly db: Kysely<WorkTables>
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

const FileParams = z.object({
  '*': z.string().describe('The file path under /api/v1/files/, as a result names it (it may contain slashes)'),
})

/**
 * GET /api/v1/files/<path>: a generated file (a filed report, …), streamed from the blob store with its
 * content type, length and ETag (sha256). Bearer key with the read scope; a file of another organization
 * answers exactly like a missing one (platform keys see every file).
 */
export const getFileRoute = route<FileRouteDeps, typeof FileParams>({
  method: 'GET',
  path: '/api/v1/files/*',
  wildcard: 'path',
  operationId: 'get_file',
  summary: 'A generated file (filed report, snapshot)',
  description: 'The path is the one a result names (it may contain slashes). Same organization only; ETag and If-None-Match supported.',
  tag: 'files',
  auth: 'bearer',
  scopes: ['read'],
  params: FileParams,
  headers: z.object({ 'If-None-Match': z.string().optional().describe('An ETag of a copy you hold: 304 when the file is unchanged') }),
  responses: {
    200: {
      description: 'The file, with its own content type.',
      type: '*/*',
      schema: z.string().meta({ format: 'binary' }).describe('The file'),
      headers: { ETag: "The file's sha256, strong" },
    },
    304: { description: 'Not modified (If-None-Match matched).' },
  },
  example: { params: { path: 'reports/12/34/aeo-2026-02.html' }, response: { status: 200, body: '<!doctype html><html>…</html>' } },
  handler: async ({ request, reply, deps, input }) => {
    const blobs = deps.blobs ?? new PostgresBlobStore(deps.db)
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const path = input.params()['*']
    const notFound = () =>
      new ApiError('not_found', `no file at ${path.slice(0, 300)}`, 'Check the path; files of other organizations are not visible')
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
  },
})

export const fileRoutes: RouteGroup<FileRouteDeps> = { routes: [getFileRoute] }
