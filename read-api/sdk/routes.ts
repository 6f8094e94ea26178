import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors.js'
import type { RpcRegistry } from '../registry.js'
import { API_VERSION } from '../version.js'
import { ARCHIVE_FILENAME, LATEST_FILENAME, sdkArchiveFor } from './archive.js'
import { SDK_NAME, SDK_VERSION } from './version.js'

export interface SdkRouteDeps {
  readonly registry: RpcRegistry
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag || candidate.trim() === '*')
}

/**
 * The Python SDK (public, no key): GET /sdk/ is the index (JSON), GET /sdk/rankrelay-<version>.tar.gz the
 * archive `pip install` takes, and GET /sdk/rankrelay-latest.tar.gz the same bytes under a stable name. The
 * archive is generated from the registry on first request and cached for the process's life.
 */
export async function sdkRoutes(app: FastifyInstance, deps: SdkRouteDeps): Promise<void> {
  const index = async () => {
    const archive = sdkArchiveFor(deps.registry)
    return {
      name: SDK_NAME,
      language: 'python',
      version: SDK_VERSION,
      api_version: API_VERSION,
      registry_fingerprint: archive.fingerprint,
      requires_python: '>=3.8',
      archives: [{ filename: archive.filename, url: `/sdk/${archive.filename}`, sha256: archive.sha256, bytes: archive.bytes.length }],
      latest: `/sdk/${LATEST_FILENAME}`,
      install: `pip install <base_url>/sdk/${archive.filename}`,
    }
  }
  app.get('/sdk', index)
  app.get('/sdk/', index)
  app.get<{ Params: { archive: string } }>('/sdk/:archive', async (request, reply) => {
    const name = request.params.archive
    if (name !== ARCHIVE_FILENAME && name !== LATEST_FILENAME) {
      throw new ApiError('sdk_archive_not_found', `${JSON.stringify(name.slice(0, 100))}: the current archive is ${ARCHIVE_FILENAME}`)
    }
    const archive = sdkArchiveFor(deps.registry)
    const etag = `"${archive.sha256}"`
    reply.header('ETag', etag)
    // The versioned name changes content only when the service is upgraded; the alias may move at any time.
    reply.header('Cache-Control', name === LATEST_FILENAME ? 'public, no-cache' : 'public, max-age=300')
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send()
    reply.header('Content-Type', 'application/gzip')
    reply.header('Content-Disposition', `attachment; filename="${archive.filename}"`)
    return reply.send(archive.bytes)
  })
}
