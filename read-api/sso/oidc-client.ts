import * as client from 'openid-client'
import type { Agent, RequestInit as UndiciRequestInit } from 'undici'
import { safeLookup } from '../../commands/network/safe-lookup.js'
import { undici } from '../../commands/network/undici.js'
import { assertWebhookUrl } from '../../commands/webhooks.js'
import { unseal } from '../../commands/secrets/service-key.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { SsoSettings } from './settings.js'

/**
 * openid-client, fenced in. Every request the service makes to an identity provider (discovery, JWKS, token,
 * userinfo) goes through `guardedFetch`: the URL must pass the webhook address policy (https; no private,
 * loopback, link-local or otherwise non-public address, literal or resolved) unless SSO_ALLOWED_HOSTS names
 * it, and redirects are never followed. So an owner's issuer URL can only send the service where the public
 * internet is, not at the metadata endpoint or the database next door.
 *
 * The policy is applied twice: to the URL before each request (literal addresses, the scheme), and to every
 * address a name resolves to at connect time, as the webhook dispatcher does, so DNS rebinding cannot slip an
 * internal address in between.
 */
export const issuerInvalid = (detail: string) =>
  new DomainError('sso_issuer_invalid', 'The identity provider issuer could not be used', detail)

/** Throws sso_issuer_invalid naming the rule when the URL may not be fetched. */
export async function assertIdpUrl(settings: SsoSettings, url: string): Promise<string> {
  try {
    return await assertWebhookUrl({ serviceKey: settings.serviceKey, allowList: settings.allowList, resolve: settings.resolve }, url)
  } catch (error) {
    if (error instanceof DomainError && error.code === 'webhook_url_refused')
      throw issuerInvalid(`${url}: address not allowed: ${error.detail ?? error.message}`)
    throw error
  }
}

/**
 * One connection pool per settings object whose sockets connect only through the policy-checked lookup, so the
 * address checked is the address connected to (a name that resolves to a public address for the check and to
 * an internal one for the connect, DNS rebinding, is refused at connect time).
 */
const dispatchers = new WeakMap<SsoSettings, Agent>()
function dispatcherOf(settings: SsoSettings): Agent {
  let agent = dispatchers.get(settings)
  if (!agent) {
    agent = new (undici().Agent)({ connect: { lookup: safeLookup(settings.resolve, settings.allowList) } })
    dispatchers.set(settings, agent)
  }
  return agent
}

function guardedFetch(settings: SsoSettings): client.CustomFetch {
  return async (url, options) => {
    // Literal addresses never reach a lookup: the policy judges them here.
    await assertIdpUrl(settings, url)
    const response = await undici().fetch(url, {
      ...(options as UndiciRequestInit),
      redirect: 'manual',
      dispatcher: dispatcherOf(settings),
    })
    return response as unknown as Response
  }
}

/** The cause chain of an error as one line (openid-client wraps what went wrong). */
export function describeError(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let i = 0; i < 4 && current instanceof Error; i++) {
    if (current instanceof DomainError && current.detail) parts.push(current.detail)
    else parts.push(current.message)
    current = (current as Error & { cause?: unknown }).cause
  }
  return parts.join(': ').slice(0, 500)
}

export interface IssuerInput {
  readonly issuer: string
  readonly clientId: string
  /** Sealed with the service key; null: a public client (PKCE only, no client authentication). */
  readonly clientSecretSealed: string | null
}

/**
 * Fetches the issuer's discovery document and checks what sign-in needs: the issuer in the document equals
 * the one given (openid-client), an authorization endpoint, a token endpoint and a JWKS URI, the `code`
 * response type and (when the document lists methods) PKCE S256. Throws sso_issuer_invalid naming what
 * failed. The id_token signature is always checked against the JWKS (non-repudiation checks on).
 */
export async function discoverIssuer(settings: SsoSettings, input: IssuerInput): Promise<client.Configuration> {
  let url: URL
  try {
    url = new URL(input.issuer)
  } catch {
    throw issuerInvalid('issuer: not an absolute URL')
  }
  if (url.search !== '' || url.hash !== '') throw issuerInvalid('issuer: an issuer URL has no query or fragment')
  await assertIdpUrl(settings, input.issuer)
  const secret = input.clientSecretSealed === null ? null : unseal(settings.serviceKey, input.clientSecretSealed)
  const fetcher = guardedFetch(settings)
  let config: client.Configuration
  try {
    config = await client.discovery(url, input.clientId, undefined, secret === null ? client.None() : client.ClientSecretPost(secret), {
      [client.customFetch]: fetcher,
      // http only reaches here for an address the operator allowed (SSO_ALLOWED_HOSTS): tests, internal IdPs.
      execute:
        url.protocol === 'http:' ? [client.allowInsecureRequests, client.enableNonRepudiationChecks] : [client.enableNonRepudiationChecks],
      timeout: 10,
    })
  } catch (error) {
    if (error instanceof DomainError) throw error
    throw issuerInvalid(`discovery document of ${input.issuer}: ${describeError(error)}`)
  }
  config[client.customFetch] = fetcher
  const meta = config.serverMetadata()
  // Exactly (id_tokens are checked against this string): `https://idp/` is not `https://idp`.
  if (meta.issuer !== input.issuer) throw issuerInvalid(`discovery document: it names the issuer ${meta.issuer}, not ${input.issuer}`)
  if (!meta.authorization_endpoint) throw issuerInvalid('discovery document: no authorization_endpoint')
  if (!meta.token_endpoint) throw issuerInvalid('discovery document: no token_endpoint')
  if (!meta.jwks_uri) throw issuerInvalid('discovery document: no jwks_uri (the id_token signature could not be verified)')
  if (Array.isArray(meta.response_types_supported) && !meta.response_types_supported.includes('code'))
    throw issuerInvalid('discovery document: the code response type is not supported')
  if (Array.isArray(meta.code_challenge_methods_supported) && !meta.code_challenge_methods_supported.includes('S256')) {
    throw issuerInvalid('discovery document: PKCE S256 is not supported')
  }
  // Client authentication as the provider offers it (basic is the OIDC default).
  if (secret !== null) {
    const methods = meta.token_endpoint_auth_methods_supported
    const basic = !Array.isArray(methods) || methods.includes('client_secret_basic')
    if (basic) {
      config = new client.Configuration(meta, input.clientId, undefined, client.ClientSecretBasic(secret))
      config[client.customFetch] = fetcher
      if (url.protocol === 'http:') client.allowInsecureRequests(config)
      client.enableNonRepudiationChecks(config)
    }
  }
  return config
}

/**
 * Discovered configurations, per provider, for 10 minutes (a cache only: any process rebuilds its own, and a
 * provider change changes the key).
 */
export class IssuerCache {
  readonly #entries = new Map<number, { key: string; at: number; config: Promise<client.Configuration> }>()
  constructor(
    private readonly settings: SsoSettings,
    private readonly ttlMs = 10 * 60_000,
  ) {}

  get(providerId: number, input: IssuerInput): Promise<client.Configuration> {
    const key = `${input.issuer}\n${input.clientId}\n${input.clientSecretSealed ?? ''}`
    const now = Date.now()
    const hit = this.#entries.get(providerId)
    if (hit && hit.key === key && now - hit.at < this.ttlMs) return hit.config
    const config = discoverIssuer(this.settings, input)
    this.#entries.set(providerId, { key, at: now, config })
    config.catch(() => {
      if (this.#entries.get(providerId)?.config === config) this.#entries.delete(providerId)
    })
    return config
  }
}
