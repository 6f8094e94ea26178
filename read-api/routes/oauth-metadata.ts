import type { FastifyInstance, FastifyRequest } from 'fastify'
import { OAUTH_SCOPES } from '../../domain/oauth/scopes.js'

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

/** GET /.well-known/oauth-authorization-server: public. */
export function authorizationServerMetadataRoute(app: FastifyInstance, issuerOf: (request: FastifyRequest) => string): void {
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, async (request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8')
    return authorizationServerMetadata(issuerOf(request))
  })
}
