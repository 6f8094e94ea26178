/**
 * An OIDC provider's URLs (spec Authentication 7): `{base}/auth/oidc/<id>` (where staff start signing in) and
 * `/callback` (the redirect URI registered at the identity provider). One function, so the RPCs' answer and
 * the redirect URI the routes send the provider cannot drift apart. `base` is the service's public address
 * (read-api/platform/public-base-url.ts).
 */
export interface OidcUrls {
  readonly login: string
  readonly redirectUri: string
}

export function oidcUrls(base: string, providerId: number): OidcUrls {
  const login = `${base}/auth/oidc/${providerId}`
  return { login, redirectUri: `${login}/callback` }
}
