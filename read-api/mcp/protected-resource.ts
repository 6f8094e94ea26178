import { z } from 'zod'
import { baseUrlOf, PROTECTED_RESOURCE_METADATA_PATH } from '../auth/bearer-challenge.js'
import { route } from '../platform/route.js'

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

const ProtectedResource = z.object({
  resource: z.string().describe('The MCP server (the same tokens work on /api/v1/*)'),
  resource_name: z.string().describe('Its name'),
  authorization_servers: z.array(z.string()).describe('This service, whose RFC 8414 metadata names the endpoints'),
  scopes_supported: z.array(z.string()).describe('read, write, jobs, offline_access'),
  bearer_methods_supported: z.array(z.string()).describe('header'),
  resource_documentation: z.string().describe('The MCP section of the developer guide'),
})

/** GET /.well-known/oauth-protected-resource/api/v1/mcp: public, like every discovery document. */
export const protectedResourceRoute = route<{ readonly publicDocs?: { readonly baseUrl?: string | undefined } | undefined }>({
  method: 'GET',
  path: PROTECTED_RESOURCE_METADATA_PATH,
  operationId: 'oauth_protected_resource',
  summary: 'Protected-resource metadata of the MCP server and API (RFC 9728)',
  description:
    'Named by the resource_metadata parameter of every 401 challenge: the resource, its authorization server (this service), scopes and bearer methods.',
  tag: 'meta',
  auth: 'public',
  responses: { 200: { description: 'The metadata.', schema: ProtectedResource } },
  example: { response: { status: 200, body: protectedResourceMetadata('https://api.example.com') } },
  handler: async ({ request, reply, deps }) => {
    reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8')
    return protectedResourceMetadata(baseUrlOf(request, deps.publicDocs?.baseUrl))
  },
})
