/** SSO state (with its nonce and PKCE verifier) works this long, once (spec Limits: "SSO state"). */
export const SSO_STATE_TTL_MS = 10 * 60_000
/** The scopes every OIDC sign-in asks for (spec Authentication 7). */
export const OIDC_SCOPES = 'openid email profile'
