import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import * as client from 'openid-client'
import { z } from 'zod'
import { seal, unseal } from '../../commands/secrets/service-key.js'
import { completeSsoSignIn, loadSsoProvider, recordSsoSignInFailure, rulesOf } from '../../commands/sso.js'
import { SESSION_TTL_MS } from '../../domain/people/policy.js'
import { EmailSchema, normalizeEmail } from '../../domain/people/email.js'
import type { SsoFailureReason } from '../../domain/sso/events.js'
import { OIDC_SCOPES, SSO_STATE_TTL_MS } from '../../domain/sso/policy.js'
import type { SsoProviderState } from '../../domain/sso/provider.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { parseCookies, serializeCookie } from '../people/cookies.js'
import { errorBox, html, sendPage } from '../people/html.js'
import { pageResponse, ReturnTo } from '../people/page-responses.js'
import { safeReturnTo, setSessionCookie } from '../people/session.js'
import { secureCookies, type PeopleSettings } from '../people/settings.js'
import { route } from '../platform/route.js'
import { browserHashOf, claimLoginState, createLoginState } from './login-states.js'
import { describeError } from './oidc-client.js'
import type { SsoPagesDeps } from './pages-deps.js'
import { signInPages } from './sign-in-pages.js'
import { oidcUrls } from './urls.js'

/**
 * OIDC sign-in (spec Authentication 7): GET /auth/oidc/<provider> starts authorization code + PKCE (S256)
 * with scopes openid email profile, a single-use 10-minute `state` and a `nonce`; GET
 * /auth/oidc/<provider>/callback claims the state, exchanges the code and verifies the id_token
 * (openid-client: signature via the JWKS, issuer, audience, expiry, nonce), then domain/sso decides
 * (verified email, hosted domain, provisioning) and a session cookie is issued as /login issues it.
 *
 * The state is also bound to the browser that started the sign-in (an `rr_oidc` cookie whose digest the state
 * row keeps): a callback URL that reaches another browser (login CSRF, a leaked link) is refused.
 *
 * Every refusal is recorded with its reason (SsoSignInFailed) and the person sees one message for all that
 * concern who they are, so nothing tells whether an account exists.
 */
const browserCookieName = (people: PeopleSettings) => (secureCookies(people) ? '__Host-rr_oidc' : 'rr_oidc')

const redirectUriOf = (deps: SsoPagesDeps, request: FastifyRequest, providerId: number) =>
  oidcUrls(baseUrlOf(request, deps.sso.baseUrl), providerId).redirectUri
const issuerOf = (provider: SsoProviderState) => ({
  issuer: provider.settings!.issuer,
  clientId: provider.settings!.client_id,
  clientSecretSealed: provider.settings!.client_secret_sealed,
})

async function activeProvider(deps: SsoPagesDeps, id: string): Promise<SsoProviderState | null> {
  if (!/^\d{1,15}$/.test(id)) return null
  const provider = await loadSsoProvider(deps.write, Number(id))
  return provider.exists && !provider.deleted && provider.active ? provider : null
}

const ProviderParams = z.object({
  provider: z
    .string()
    .meta({ type: 'integer', minimum: 1 })
    .describe('The OIDC provider id (the login URL the provider RPCs give names it)'),
})
const StartQuery = z.object({
  return_to: ReturnTo,
  login_hint: z.string().optional().describe('The work email, passed on to the identity provider (ignored unless an email)'),
})
const UNKNOWN = pageResponse('The provider is unknown, deleted or deactivated.')
const PAUSED = pageResponse('Signing in is paused for maintenance.')

export const oidcStartRoute = route<SsoPagesDeps, typeof ProviderParams, typeof StartQuery>({
  method: 'GET',
  path: '/auth/oidc/:provider',
  operationId: 'oidc_start',
  summary: 'Single sign-on (OIDC): start at the identity provider',
  description:
    'Sends the browser to the provider (authorization code + PKCE S256, scopes openid email profile, a single-use 10-minute state and a nonce) and binds the sign-in to this browser with a cookie.',
  tag: 'sign-in',
  auth: 'public',
  params: ProviderParams,
  query: StartQuery,
  responses: {
    303: {
      description: "To the provider's authorization endpoint.",
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The rr_oidc cookie binding the sign-in to this browser' },
    },
    404: UNKNOWN,
    502: pageResponse('The identity provider could not be reached.'),
    503: PAUSED,
  },
  example: { params: { provider: 7 }, query: { return_to: '/account', login_hint: 'dana@acme.example' } },
  handler: async ({ request, reply, deps, input }) => {
    const { unknownProvider, writesOff } = signInPages(deps)
    const provider = await activeProvider(deps, input.params().provider)
    if (!provider) return unknownProvider(reply)
    if (await writesOff(request, reply)) return reply
    let config: client.Configuration
    try {
      config = await deps.issuers.get(provider.providerId, issuerOf(provider))
    } catch (error) {
      // Logged, not recorded: nobody has started signing in yet, and anyone can open this URL.
      request.log.warn({ provider_id: provider.providerId, error: describeError(error) }, 'sso provider unavailable')
      return sendPage(
        reply,
        502,
        'Single sign-on',
        html`${errorBox('Your identity provider could not be reached. Try again in a minute, or sign in with your password.', 'sso_provider_unavailable')}`,
      )
    }
    // One binding value per browser (kept if present, so two sign-ins started in parallel both work).
    const cookieName = browserCookieName(deps.people)
    let browserToken = parseCookies(request.headers.cookie).get(cookieName)
    if (!browserToken || !/^[A-Za-z0-9_-]{32,64}$/.test(browserToken)) browserToken = randomBytes(32).toString('base64url')
    reply.header(
      'Set-Cookie',
      serializeCookie(cookieName, browserToken, { secure: secureCookies(deps.people), maxAgeSeconds: SSO_STATE_TTL_MS / 1000 }),
    )

    const query = request.query as Record<string, unknown>
    const verifier = client.randomPKCECodeVerifier()
    const nonce = client.randomNonce()
    const state = await createLoginState(deps.db, {
      providerId: provider.providerId,
      browserToken,
      nonce,
      codeVerifierSealed: seal(deps.sso.serviceKey, verifier),
      returnTo: safeReturnTo(query.return_to),
      now: deps.write.clock(),
    })
    const parameters: Record<string, string> = {
      response_type: 'code',
      redirect_uri: redirectUriOf(deps, request, provider.providerId),
      scope: OIDC_SCOPES,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }
    if (provider.settings!.hosted_domain !== '') parameters.hd = provider.settings!.hosted_domain
    const hint = query.login_hint
    if (typeof hint === 'string' && EmailSchema.safeParse(hint).success) parameters.login_hint = normalizeEmail(hint)
    return reply
      .code(303)
      .header('Cache-Control', 'no-store')
      .header('Location', client.buildAuthorizationUrl(config, parameters).href)
      .send()
  },
})

const CallbackQuery = z.object({
  code: z.string().optional().describe('The authorization code'),
  state: z.string().optional().describe('The state this service sent (single use, 10 minutes)'),
  iss: z.string().optional().describe("RFC 9207: the provider's issuer, checked when sent"),
  error: z.string().optional().describe("The provider's refusal (a recorded failure)"),
  error_description: z.string().optional().describe("The provider's words for it"),
})

export const oidcCallbackRoute = route<SsoPagesDeps, typeof ProviderParams, typeof CallbackQuery>({
  method: 'GET',
  path: '/auth/oidc/:provider/callback',
  operationId: 'oidc_callback',
  summary: 'Single sign-on (OIDC): the redirect URI',
  description:
    'Where the provider sends the browser back: the state is claimed (this browser, this provider, once), the code exchanged and the id_token verified, then the person is signed in (session cookie) and sent on to return_to (or /account). A refusal is recorded with its reason; the page says only whether the link was stale (400) or sign-on did not let them in (403).',
  tag: 'sign-in',
  auth: 'public',
  params: ProviderParams,
  query: CallbackQuery,
  responses: {
    303: {
      description: 'Signed in: on to return_to, else /account.',
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The session cookie' },
    },
    400: pageResponse('The sign-in link expired, was used or was started in another browser.'),
    403: pageResponse('Single sign-on did not let the person in.'),
    404: UNKNOWN,
    503: PAUSED,
  },
  example: {
    params: { provider: 7 },
    query: { code: 'SplxlOBeZQQYbYS6WxSbIA', state: 'hq0Yw2Jt3c8bFvP1nRkT6Q', iss: 'https://accounts.acme.example' },
  },
  handler: async ({ request, reply, deps, input }) => {
    const { settle, context, writesOff, unknownProvider, refused } = signInPages(deps)
    const { provider: providerParam } = input.params()
    if (!/^\d{1,15}$/.test(providerParam)) return unknownProvider(reply)
    const routeProviderId = Number(providerParam)
    if (await writesOff(request, reply)) return reply
    const now = deps.write.clock()
    const query = request.query as Record<string, string>
    const claim = await claimLoginState(deps.db, typeof query.state === 'string' ? query.state : '', now)
    const provider = await loadSsoProvider(deps.write, routeProviderId)
    const fail = async (
      reason: SsoFailureReason,
      extra: { detail?: string | null; subject?: string | null; emailDomain?: string | null } = {},
    ) => {
      // A refusal is recorded against a provider that exists (the route's); a made-up id records nothing, and
      // neither does a state this service never issued: anyone can send one, and the log is not theirs to fill.
      const position =
        provider.exists && reason !== 'state_unknown'
          ? await recordSsoSignInFailure(deps.write, context(request), {
              providerId: provider.providerId,
              orgId: provider.orgId!,
              protocol: 'oidc',
              reason,
              ...extra,
            })
          : null
      return refused(reply, request, reason, position)
    }
    if (!claim.ok) return fail(claim.problem)
    if (claim.row.providerId !== routeProviderId) return fail('state_unknown', { detail: 'the state belongs to another provider' })
    const browserToken = parseCookies(request.headers.cookie).get(browserCookieName(deps.people))
    if (!browserToken || browserHashOf(browserToken) !== claim.row.browserHash) return fail('browser_mismatch')
    if (!provider.exists || provider.deleted || !provider.active)
      return fail('provider_unavailable', { detail: 'the provider was deleted or deactivated' })
    if (typeof query.error === 'string')
      return fail('provider_error', {
        detail: `${query.error}${typeof query.error_description === 'string' ? `: ${query.error_description}` : ''}`,
      })

    let config: client.Configuration
    try {
      config = await deps.issuers.get(provider.providerId, issuerOf(provider))
    } catch (error) {
      return fail('provider_unavailable', { detail: describeError(error) })
    }
    const callback = new URL(redirectUriOf(deps, request, provider.providerId))
    callback.search = new URL(request.url, 'http://callback.invalid').search
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
    try {
      tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: unseal(deps.sso.serviceKey, claim.row.codeVerifierSealed),
        ...(query.state === undefined ? {} : { expectedState: query.state }),
        expectedNonce: claim.row.nonce,
        idTokenExpected: true,
      })
    } catch (error) {
      const detail = describeError(error)
      const reason: SsoFailureReason = /nonce/i.test(detail)
        ? 'nonce_mismatch'
        : error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError
          ? 'provider_error'
          : 'id_token_invalid'
      return fail(reason, { detail })
    }
    const claims = tokens.claims()
    if (!claims) return fail('id_token_invalid', { detail: 'no id_token' })
    let identity = {
      email: typeof claims.email === 'string' ? claims.email : null,
      emailVerified: claims.email_verified,
      hostedDomain: claims.hd,
    }
    // Providers that keep email claims out of the id_token (oidc-provider's default) give them at userinfo,
    // for the same subject (openid-client checks it).
    if (identity.email === null || identity.emailVerified === undefined) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
        identity = {
          email: identity.email ?? (typeof info.email === 'string' ? info.email : null),
          emailVerified: identity.emailVerified ?? info.email_verified,
          hostedDomain: identity.hostedDomain ?? info.hd,
        }
      } catch (error) {
        return fail('provider_error', { detail: `userinfo: ${describeError(error)}`, subject: claims.sub })
      }
    }
    const outcome = await completeSsoSignIn(deps.write, {
      provider: { protocol: 'oidc', providerId: provider.providerId, rules: rulesOf(provider, deps.sso.publicSignup) },
      subject: claims.sub,
      identity,
      requestId: request.id,
    })
    if (!outcome.ok) return refused(reply, request, outcome.reason, outcome.position)
    await settle(outcome.position)
    setSessionCookie(reply, deps.people, outcome.sessionToken, SESSION_TTL_MS / 1000)
    return reply
      .code(303)
      .header('Cache-Control', 'no-store')
      .header('Location', claim.row.returnTo ?? '/account')
      .send()
  },
})
