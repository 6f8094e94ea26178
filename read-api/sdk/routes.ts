import { z } from 'zod'
import { ApiError } from '../errors.js'
import { route, type RouteGroup } from '../platform/route.js'
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

const SdkIndex = z.object({
  name: z.string().describe('The package name'),
  language: z.literal('python').describe('The language of the SDK'),
  version: z.string().describe('The SDK version'),
  api_version: z.string().describe('The API version it was generated for'),
  registry_fingerprint: z.string().describe('Changes whenever the RPC catalogue does'),
  requires_python: z.string().describe('The Python versions it runs on'),
  archives: z
    .array(
      z.object({
        filename: z.string().describe('The archive name'),
        url: z.string().describe('Where to download it (relative to the base URL)'),
        sha256: z.string().describe('Its sha256, hex'),
        bytes: z.number().int().describe('Its size'),
      }),
    )
    .describe('The archives'),
  latest: z.string().describe('The stable alias of the current archive'),
  install: z.string().describe('The pip command'),
})

/**
 * The Python SDK (public, no key): GET /sdk/ is the index (JSON), GET /sdk/rankrelay-<version>.tar.gz the
 * archive `pip install` takes, and GET /sdk/rankrelay-latest.tar.gz the same bytes under a stable name. The
 * archive is generated from the registry on first request and cached for the process's life.
 */
export const sdkIndexRoute = route<SdkRouteDeps>({
  method: 'GET',
  path: '/sdk',
  aliases: ['/sdk/'],
  operationId: 'sdk_index',
  summary: 'The Python SDK: version, archives and install command (also at /sdk/)',
  tag: 'meta',
  auth: 'public',
  responses: { 200: { description: 'The SDK index.', schema: SdkIndex } },
  example: {
    response: {
      status: 200,
      body: {
        name: SDK_NAME,
        language: 'python',
        version: SDK_VERSION,
        api_version: API_VERSION,
        registry_fingerprint: '3f9a1c0d2b7e',
        requires_python: '>=3.8',
        archives: [{ filename: ARCHIVE_FILENAME, url: `/sdk/${ARCHIVE_FILENAME}`, sha256: '9b1d…', bytes: 48213 }],
        latest: `/sdk/${LATEST_FILENAME}`,
        install: `pip install <base_url>/sdk/${ARCHIVE_FILENAME}`,
      },
    },
  },
  handler: async ({ deps }) => {
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
  },
})

const ArchiveParams = z.object({ archive: z.string().describe(`${ARCHIVE_FILENAME} or ${LATEST_FILENAME}`) })

export const sdkArchiveRoute = route<SdkRouteDeps, typeof ArchiveParams>({
  method: 'GET',
  path: '/sdk/:archive',
  operationId: 'sdk_archive',
  summary: 'The Python SDK source archive (pip install <url>)',
  description:
    'Generated from the registry: a typed client for every RPC, job polling and webhook signature verification, standard library only. rankrelay-latest.tar.gz is a stable alias. ETag and If-None-Match supported.',
  tag: 'meta',
  auth: 'public',
  params: ArchiveParams,
  responses: {
    200: { description: 'The archive.', type: 'application/gzip', schema: z.string().meta({ format: 'binary' }).describe('The archive') },
    304: { description: 'Not modified (If-None-Match matched).' },
  },
  example: { params: { archive: LATEST_FILENAME } },
  handler: async ({ request, reply, deps, input }) => {
    const name = input.params().archive
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
  },
})

export const sdkRoutes: RouteGroup<SdkRouteDeps> = { routes: [sdkIndexRoute, sdkArchiveRoute] }
