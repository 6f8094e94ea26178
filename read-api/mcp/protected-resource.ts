import type { FastifyInstance, FastifyRequest } from 'fastify'
import { PROTECTED_RESOURCE_METADATA_PATH } from '../auth/bearer-challenge.js'

export const MCP_PATH = '/api/v1/mcp'

/** The scopes a token for this resource can carry (spec behaviour.md, Authentication 6). */
export const SUPPORTED_SCOPES = ['read', 'write', 'jobs', 'offline_access'] as const

/**
 * RFC 9728 protected-resource metadata of the MCP server (and of the API behind it: the same tokens work on
 * /api/v1/*). An MCP client that is refused with 401 follows `resource_metadata` here, then the
 * authorization server's own metadata (RFC 8414) at `<authorization server>/.well-known/oauth-authorization-server`.
 * The authorization server is this service itself (read-api/routes/oauth.ts serves its metadata and
 * endpoints), so `authorization_servers` is the service's own base URL, which is also the issuer there.
 */
export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: `${baseUrl}${MCP_PATH}`,
    resource_name: 'RankRelay MCP server',
    authorization_servers: [baseUrl],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ['header'],
    resource_documentation: `${baseUrl}/developers.md#mcp`,
  }
}

/** GET /.well-known/oauth-protected-resource/api/v1/mcp: public, like every discovery document. */
export function protectedResourceRoute(app: FastifyInstance, baseUrlOf: (request: FastifyRequest) => string): void {
  app.get(PROTECTED_RESOURCE_METADATA_PATH, async (request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8')
    return protectedResourceMetadata(baseUrlOf(request))
  })
}
