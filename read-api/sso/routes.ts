import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as client from 'openid-client'
import type { WriteDeps } from '../../commands/command-handler.js'
import { seal, unseal } from '../../commands/secrets/service-key.js'
import { completeSsoSignIn, loadSsoProvider, recordSsoSignInFailure, rulesOf } from '../../commands/sso.js'
import { SESSION_TTL_MS } from '../../domain/people/policy.js'
import { EmailSchema, normalizeEmail } from '../../domain/people/email.js'
import { domainOfEmail } from '../../domain/sso/domains.js'
import type { SsoFailureReason } from '../../domain/sso/events.js'
import { OIDC_SCOPES, SSO_STATE_TTL_MS } from '../../domain/sso/policy.js'
import type { SsoProviderState } from '../../domain/sso/provider.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { parseCookies, serializeCookie } from '../people/cookies.js'
import { acceptForms } from '../platform/form-input.js'
import { csrfToken, csrfValid, CSRF_FIELD } from '../people/csrf.js'
import { errorBox, html, noticeBox, sendPage, type Raw } from '../people/html.js'
import { safeReturnTo, setSessionCookie } from '../people/session.js'
import { secureCookies, type PeopleSettings } from '../people/settings.js'
import { IssuerCache, describeError } from './oidc-client.js'
import { providerForDomain } from './provider-for-domain.js'
import { signInPages } from './sign-in-pages.js'
import { oidcUrls } from './urls.js'
import { browserHashOf, claimLoginState, createLoginState } from './login-states.js'
import type { SsoSettings } from './settings.js'
import type { Kysely } from 'kysely'

/**
 * OIDC sign-in (spec Authentication 7): GET /auth/oidc/<provider> starts authorization code + PKCE (S256)
 * with scopes openid email profile, a single-use 10-minute `state` and a `nonce`; GET
 * /auth/oidc/<provider>/callback claims the state, exchanges the code and verifies the id_token
 * (openid-client: signature via the JWKS, issuer, audience, expiry, nonce), then domain/sso decides
 * (verified email, hosted domain, provisioning) and a session cookie is issued as /login issues it.
 * GET/POST /login/sso sends staff to their organization's provider by the domain of their work email.
 *
 * The state is also bound to the browser that started the sign-in (an `rr_oidc` cookie whose digest the state
 * row keeps): a callback URL that reaches another browser (login CSRF, a leaked link) is refused.
 *
 * Every refusal is recorded with its reason (SsoSignInFailed) and the person sees one message for all that
 * concern who they are, so nothing tells whether an account exists.
 */
export interface SsoRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly db: Kysely<any>
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly settings: { readonly people?: PeopleSettings; readonly sso?: SsoSettings }
}

type Form = Record<string, string>

const browserCookieName = (people: PeopleSettings) => (secureCookies(people) ? '__Host-rr_oidc' : 'rr_oidc')

export async function ssoRoutes(app: FastifyInstance, deps: SsoRouteDeps): Promise<void> {
  const people = deps.settings.people
  const sso = deps.settings.sso
  if (!people || !sso) return
  const issuers = new IssuerCache(sso)

  acceptForms(app, { bodyLimit: 16 * 1024, repeated: 'first' })

  const { settle, context, writesOff, unknownProvider, refused } = signInPages(deps)
  const redirectUri = (request: FastifyRequest, providerId: number) => oidcUrls(baseUrlOf(request, sso.baseUrl), providerId).redirectUri
  const issuerOf = (provider: SsoProviderState) => ({ issuer: provider.settings!.issuer, clientId: provider.settings!.client_id, clientSecretSealed: provider.settings!.client_secret_sealed })
  const activeProvider = async (id: string): Promise<SsoProviderState | null> => {
    if (!/^\d{1,15}$/.test(id)) return null
    const provider = await loadSsoProvider(deps.write, Number(id))
    return provider.exists && !provider.deleted && provider.active ? provider : null
  }

  // ---- GET /auth/oidc/<provider> ----
  app.get<{ Params: { provider: string }; Querystring: Record<string, string> }>('/auth/oidc/:provider', async (request, reply) => {
    const provider = await activeProvider(request.params.provider)
    if (!provider) return unknownProvider(reply)
    if (await writesOff(request, reply)) return reply
    let config: client.Configuration
    try {
      config = await issuers.get(provider.providerId, issuerOf(provider))
    } catch (error) {
      // Logged, not recorded: nobody has started signing in yet, and anyone can open this URL.
      request.log.warn({ provider_id: provider.providerId, error: describeError(error) }, 'sso provider unavailable')
      return sendPage(reply, 502, 'Single sign-on', html`${errorBox('Your identity provider could not be reached. Try again in a minute, or sign in with your password.', 'sso_provider_unavailable')}`)
    }
    // One binding value per browser (kept if present, so two sign-ins started in parallel both work).
    const cookieName = browserCookieName(people)
    let browserToken = parseCookies(request.headers.cookie).get(cookieName)
    if (!browserToken || !/^[A-Za-z0-9_-]{32,64}$/.test(browserToken)) browserToken = randomBytes(32).toString('base64url')
    reply.header('Set-Cookie', serializeCookie(cookieName, browserToken, { secure: secureCookies(people), maxAgeSeconds: SSO_STATE_TTL_MS / 1000 }))

    const verifier = client.randomPKCECodeVerifier()
    const nonce = client.randomNonce()
    const state = await createLoginState(deps.db, {
      providerId: provider.providerId,
      browserToken,
      nonce,
      codeVerifierSealed: seal(sso.serviceKey, verifier),
      returnTo: safeReturnTo(request.query.return_to),
      now: deps.write.clock(),
    })
    const parameters: Record<string, string> = {
      response_type: 'code',
      redirect_uri: redirectUri(request, provider.providerId),
      scope: OIDC_SCOPES,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }
    if (provider.settings!.hosted_domain !== '') parameters.hd = provider.settings!.hosted_domain
    const hint = request.query.login_hint
    if (typeof hint === 'string' && EmailSchema.safeParse(hint).success) parameters.login_hint = normalizeEmail(hint)
    return reply.code(303).header('Cache-Control', 'no-store').header('Location', client.buildAuthorizationUrl(config, parameters).href).send()
  })

  // ---- GET /auth/oidc/<provider>/callback ----
  app.get<{ Params: { provider: string }; Querystring: Record<string, string> }>('/auth/oidc/:provider/callback', async (request, reply) => {
    if (!/^\d{1,15}$/.test(request.params.provider)) return unknownProvider(reply)
    const routeProviderId = Number(request.params.provider)
    if (await writesOff(request, reply)) return reply
    const now = deps.write.clock()
    const query = request.query
    const claim = await claimLoginState(deps.db, typeof query.state === 'string' ? query.state : '', now)
    const provider = await loadSsoProvider(deps.write, routeProviderId)
    const fail = async (reason: SsoFailureReason, extra: { detail?: string | null; subject?: string | null; emailDomain?: string | null } = {}) => {
      // A refusal is recorded against a provider that exists (the route's); a made-up id records nothing, and
      // neither does a state this service never issued: anyone can send one, and the log is not theirs to fill.
      const position = provider.exists && reason !== 'state_unknown' ? await recordSsoSignInFailure(deps.write, context(request), { providerId: provider.providerId, orgId: provider.orgId!, protocol: 'oidc', reason, ...extra }) : null
      return refused(reply, request, reason, position)
    }
    if (!claim.ok) return fail(claim.problem)
    if (claim.row.providerId !== routeProviderId) return fail('state_unknown', { detail: 'the state belongs to another provider' })
    const browserToken = parseCookies(request.headers.cookie).get(browserCookieName(people))
    if (!browserToken || browserHashOf(browserToken) !== claim.row.browserHash) return fail('browser_mismatch')
    if (!provider.exists || provider.deleted || !provider.active) return fail('provider_unavailable', { detail: 'the provider was deleted or deactivated' })
    if (typeof query.error === 'string') return fail('provider_error', { detail: `${query.error}${typeof query.error_description === 'string' ? `: ${query.error_description}` : ''}` })

    let config: client.Configuration
    try {
      config = await issuers.get(provider.providerId, issuerOf(provider))
    } catch (error) {
      return fail('provider_unavailable', { detail: describeError(error) })
    }
    const callback = new URL(redirectUri(request, provider.providerId))
    callback.search = new URL(request.url, 'http://callback.invalid').search
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
    try {
      tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: unseal(sso.serviceKey, claim.row.codeVerifierSealed),
        expectedState: query.state,
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
    let identity = { email: typeof claims.email === 'string' ? claims.email : null, emailVerified: claims.email_verified, hostedDomain: claims.hd }
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
      provider: { protocol: 'oidc', providerId: provider.providerId, rules: rulesOf(provider, sso.publicSignup) },
      subject: claims.sub,
      identity,
      requestId: request.id,
    })
    if (!outcome.ok) return refused(reply, request, outcome.reason, outcome.position)
    await settle(outcome.position)
    setSessionCookie(reply, people, outcome.sessionToken, SESSION_TTL_MS / 1000)
    return reply.code(303).header('Cache-Control', 'no-store').header('Location', claim.row.returnTo ?? '/account').send()
  })

  // ---- /login/sso ----
  const formOf = (request: FastifyRequest): Form => (request.body && typeof request.body === 'object' ? (request.body as Form) : {})
  const ssoForm = (request: FastifyRequest, reply: FastifyReply, options: { email?: string; returnTo: string | null; message?: Raw }) => html`
${options.message ?? ''}
<p>Sign in with your company account: type your work email and you are sent to your organization's identity provider.</p>
<form method="post" action="/login/sso">
<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(request, reply, people)}">
${options.returnTo === null ? '' : html`<input type="hidden" name="return_to" value="${options.returnTo}">`}
<label for="email">Work email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
<button type="submit">Continue</button>
</form>
<p><a href="/login${options.returnTo === null ? '' : `?return_to=${encodeURIComponent(options.returnTo)}`}">Sign in with a password instead</a></p>`
  // The form leads on (via /auth/oidc) to the provider's origin, which form-action 'self' would block.
  const ssoPage = (reply: FastifyReply, status: number, body: Raw) => sendPage(reply, status, 'Company sign-in', body, { formAction: "'self' https: http:" })

  app.get<{ Querystring: Record<string, string> }>('/login/sso', async (request, reply) =>
    ssoPage(reply, 200, ssoForm(request, reply, { returnTo: safeReturnTo(request.query.return_to) })),
  )

  app.post('/login/sso', async (request, reply) => {
    const form = formOf(request)
    if (!csrfValid(request, people, form)) {
      return sendPage(reply, 403, 'Form expired', html`${errorBox('The form expired or did not come from this site. Go back, reload the page and try again.', 'csrf_failed')}`)
    }
    if (await writesOff(request, reply)) return reply
    const returnTo = safeReturnTo(form.return_to)
    const parsed = EmailSchema.safeParse(form.email ?? '')
    const domain = parsed.success ? domainOfEmail(normalizeEmail(parsed.data)) : null
    const found = domain === null ? null : await providerForDomain(deps.read, domain)
    if (!found) {
      // The same words whatever the reason: a typo, no provider, or a domain nobody configured.
      return ssoPage(
        reply,
        200,
        ssoForm(request, reply, {
          email: form.email ?? '',
          returnTo,
          message: noticeBox('Single sign-on is not available for this email. Check the address, sign in with your password, or ask an owner of your organization.'),
        }),
      )
    }
    if (found.protocol === 'saml') {
      // SAML has no standard login hint in an HTTP-Redirect AuthnRequest: the IdP asks for the address itself.
      return reply.code(303).header('Location', `/saml/${found.key}/login${returnTo === null ? '' : `?return_to=${encodeURIComponent(returnTo)}`}`).send()
    }
    const query = new URLSearchParams({ login_hint: normalizeEmail(parsed.success ? parsed.data : '') })
    if (returnTo !== null) query.set('return_to', returnTo)
    return reply.code(303).header('Location', `/auth/oidc/${found.id}?${query}`).send()
  })
}
