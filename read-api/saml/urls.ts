/**
 * A SAML provider's URLs (spec Authentication 7): `{base}/saml/<key>/metadata` (also the SP entity id, so it
 * is unique per provider), `/acs` (HTTP-POST Response) and `/login` (SP-initiated sign-in). `base` is the
 * service's public address (read-api/platform/public-base-url.ts: BASE_URL, else the listen address), for the
 * routes and the RPCs alike, so what the RPCs tell an owner to register is what the metadata and the ACS use.
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
