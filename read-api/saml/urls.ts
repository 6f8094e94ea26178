/**
 * A SAML provider's URLs (spec Authentication 7): `{base}/saml/<key>/metadata` (also the SP entity id, so it
 * is unique per provider), `/acs` (HTTP-POST Response) and `/login` (SP-initiated sign-in). `base` is BASE_URL,
 * or the request's own origin where there is one, or '' (relative links in an RPC result without BASE_URL).
 */
export interface SamlUrls {
  readonly entityId: string
  readonly metadata: string
  readonly acs: string
  readonly login: string
}

export function samlUrls(base: string, providerKey: string): SamlUrls {
  const root = `${base}/saml/${providerKey}`
  return { entityId: `${root}/metadata`, metadata: `${root}/metadata`, acs: `${root}/acs`, login: `${root}/login` }
}
