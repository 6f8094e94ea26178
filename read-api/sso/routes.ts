import { acceptForms } from '../platform/form-input.js'
import type { RouteGroup } from '../platform/route.js'
import { loginSsoPageRoute, loginSsoRoute } from './login-sso-routes.js'
import { oidcCallbackRoute, oidcStartRoute } from './oidc-routes.js'
import type { SsoPagesDeps } from './pages-deps.js'

/**
 * Single sign-on by OIDC (spec Authentication 7): /auth/oidc/<provider> and its callback
 * (read-api/sso/oidc-routes.ts), and /login/sso, which sends staff to their organization's provider, OIDC or
 * SAML, by the domain of their work email. Forms are parsed in this scope only.
 */
export const ssoRouteGroup: RouteGroup<SsoPagesDeps> = {
  routes: [oidcStartRoute, oidcCallbackRoute, loginSsoPageRoute, loginSsoRoute],
  setup: (scope) => acceptForms(scope, { bodyLimit: 16 * 1024, repeated: 'first' }),
}
