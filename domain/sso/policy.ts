/** SSO state (with its nonce and PKCE verifier) works this long, once (spec Limits: "SSO state"). */
export const SSO_STATE_TTL_MS = 10 * 60_000
/** The scopes every OIDC sign-in asks for (spec Authentication 7). */
export const OIDC_SCOPES = 'openid email profile'
/**
 * How far a SAML assertion's NotBefore may lie ahead of, and its NotOnOrAfter behind, the service clock:
 * an IdP's clock a little off must not lock its staff out, and a minute is far shorter than a replay window.
 */
export const SAML_CLOCK_SKEW_MS = 60_000
/** A SAMLResponse larger than this is refused before it is parsed (real ones are a few KiB). */
export const SAML_RESPONSE_MAX_BYTES = 256 * 1024
