import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { WriteDeps } from '../../commands/command-handler.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { acceptForms } from '../platform/form-input.js'
import { serveGroup, type RouteGroup } from '../platform/route.js'
import { oauthAuthorizeRoute, oauthConsentRoute, type OAuthAuthorizeDeps, type OAuthSignIn } from './oauth-authorize.js'
import { connectedAppsRoutes } from './oauth-connected-apps.js'
import { authorizationServerMetadataRoute } from './oauth-metadata.js'
import { answerOAuthInputError } from './oauth-input-errors.js'
import { oauthRegisterRoute } from './oauth-register.js'
import { oauthRevokeRoute, oauthTokenRoute } from './oauth-token.js'

export interface OAuthRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly publicDocs?: { readonly baseUrl?: string | undefined } | undefined
  /** Sign-in for the consent page (read-api/people); absent: /oauth/authorize sends everyone to /login. */
  readonly oauthSignIn?: OAuthSignIn | undefined
}

export type OAuthScopeDeps = OAuthRouteDeps & OAuthAuthorizeDeps

/**
 * The OAuth 2.0 authorization server: discovery (RFC 8414), dynamic registration (RFC 7591), the
 * authorization endpoint with its consent page, the token endpoint and revocation (RFC 7009), and the
 * Connected apps page of signed-in members (/account/apps). The protected
 * resource's own metadata (RFC 9728) is served with the MCP server (read-api/mcp/protected-resource.ts) and
 * names this server. Form bodies are parsed in this scope only (the API itself takes JSON only); a repeated
 * form field is kept as an array so the endpoints can refuse it (RFC 6749 section 3.1). A body or query the
 * input rules refuse is answered in the endpoints' RFC error shape (oauth-input-errors.ts).
 */
export const oauthRouteGroup: RouteGroup<OAuthScopeDeps> = {
  routes: [
    authorizationServerMetadataRoute,
    oauthRegisterRoute,
    oauthTokenRoute,
    oauthRevokeRoute,
    oauthAuthorizeRoute,
    oauthConsentRoute,
    ...connectedAppsRoutes,
  ],
  setup: (scope) => {
    acceptForms(scope, { bodyLimit: 16 * 1024, repeated: 'all' })
    scope.setErrorHandler(answerOAuthInputError)
  },
}

export async function oauthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): Promise<void> {
  await serveGroup(app, oauthRouteGroup, {
    ...deps,
    signIn: deps.oauthSignIn,
    issuerOf: (request: FastifyRequest) => baseUrlOf(request, deps.publicDocs?.baseUrl),
  })
}
