import { z } from 'zod'
import { OAUTH_SCOPES } from '../../domain/oauth/scopes.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { route } from '../platform/route.js'

export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server'

/**
 * RFC 8414 authorization-server metadata. The issuer is the service's base URL (BASE_URL, or the request's
 * own origin when none is configured), which is also what the protected-resource metadata names. Only what
 * we do is advertised: code + PKCE S256, public clients (`none`), no implicit, password or client-credentials
 * grants; RFC 9207 `iss` in every authorization response.
 */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/developers.md`,
  }
}

const Metadata = z.object({
  issuer: z.string().describe('This service (BASE_URL)'),
  authorization_endpoint: z.string().describe('GET /oauth/authorize'),
  token_endpoint: z.string().describe('POST /oauth/token'),
  registration_endpoint: z.string().describe('POST /oauth/register (RFC 7591)'),
  revocation_endpoint: z.string().describe('POST /oauth/revoke (RFC 7009)'),
  scopes_supported: z.array(z.string()).describe('read, write, jobs, offline_access'),
  response_types_supported: z.array(z.string()).describe('code'),
  response_modes_supported: z.array(z.string()).describe('query'),
  grant_types_supported: z.array(z.string()).describe('authorization_code and refresh_token'),
  token_endpoint_auth_methods_supported: z.array(z.string()).describe('none: public clients with PKCE'),
  revocation_endpoint_auth_methods_supported: z.array(z.string()).describe('none'),
  code_challenge_methods_supported: z.array(z.string()).describe('S256'),
  authorization_response_iss_parameter_supported: z.boolean().describe('RFC 9207: iss in every authorization response'),
  service_documentation: z.string().describe('The developer guide'),
})

/** GET /.well-known/oauth-authorization-server: public. */
export const authorizationServerMetadataRoute = route<OAuthIssuerDeps>({
  method: 'GET',
  path: AUTHORIZATION_SERVER_METADATA_PATH,
  operationId: 'oauth_authorization_server',
  summary: 'Authorization-server metadata (RFC 8414)',
  description:
    'The endpoints of this OAuth 2.0 authorization server, its scopes, and what it supports: code + PKCE S256, public clients, authorization_code and refresh_token grants.',
  tag: 'meta',
  auth: 'public',
  responses: { 200: { description: 'The metadata.', schema: Metadata } },
  example: { response: { status: 200, body: authorizationServerMetadata('https://api.example.com') } },
  handler: async ({ request, reply, deps }) => {
    reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8')
    return authorizationServerMetadata(baseUrlOf(request, deps.publicDocs?.baseUrl))
  },
})

/** What the OAuth endpoints need to name themselves: the configured public address. */
export interface OAuthIssuerDeps {
  readonly publicDocs?: { readonly baseUrl?: string | undefined } | undefined
}
