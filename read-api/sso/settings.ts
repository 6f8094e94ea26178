import type { Resolver } from '../../commands/webhooks.js'
import type { ServiceKey } from '../../commands/secrets/service-key.js'
import type { AllowList } from '../../domain/webhooks/url-policy.js'

/**
 * What single sign-on needs from the operator's configuration (ops/system.ts wires it): the service key
 * (client secrets and PKCE verifiers are sealed with it), the address policy for every request the service
 * makes to an identity provider (SSO_ALLOWED_HOSTS: the webhook URL rules with their own allow-list), how
 * names resolve, BASE_URL (redirect URIs; without it, the listen address), and whether public
 * signup is open (spec Authentication 7: an unknown email becomes owner of a new organization when it is).
 */
export interface SsoSettings {
  readonly serviceKey: ServiceKey
  readonly allowList: AllowList
  readonly resolve: Resolver
  readonly baseUrl: string | undefined
  /** SSO_PUBLIC_SIGNUP: an unknown verified email at any provider may create its own organization. */
  readonly publicSignup: boolean
}
