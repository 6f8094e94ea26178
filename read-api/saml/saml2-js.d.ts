/**
 * saml2-js ships no type declarations (and @types/saml2-js describes version 3): only what read-api/saml uses.
 */
declare module 'saml2-js' {
  export interface ServiceProviderOptions {
    entity_id: string
    assert_endpoint: string
    private_key?: string
    certificate?: string
    audience?: string
    allow_unencrypted_assertion?: boolean
    notbefore_skew?: number
  }
  export interface IdentityProviderOptions {
    sso_login_url: string
    sso_logout_url?: string
    certificates: string[]
  }
  export interface AssertResponse {
    response_header: { version?: string; destination?: string; in_response_to?: string; id?: string }
    type: string
    user: { name_id?: string | null; session_index?: string; attributes?: Record<string, string[]> } & Record<string, unknown>
  }
  export interface AssertOptions {
    request_body: { SAMLResponse: string; RelayState?: string }
    require_session_index?: boolean
    ignore_timing?: boolean
    allow_unencrypted_assertion?: boolean
    audience?: string
  }
  export class IdentityProvider {
    constructor(options: IdentityProviderOptions)
  }
  export class ServiceProvider {
    constructor(options: ServiceProviderOptions)
    create_login_request_url(
      idp: IdentityProvider,
      options: { relay_state?: string },
      cb: (error: Error | null, url: string, requestId: string) => void,
    ): void
    post_assert(
      idp: IdentityProvider,
      options: AssertOptions,
      cb: (error: (Error & { extra?: unknown }) | null, response: AssertResponse) => void,
    ): void
  }
}
