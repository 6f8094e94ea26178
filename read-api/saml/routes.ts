import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
// saml2-js (with xmlbuilder2, xml-crypto, xml-encryption) is imported when a sign-in starts, not with the app.
import type saml2 from 'saml2-js'
import { z } from 'zod'
import { loadSamlProvider, samlRulesOf } from '../../commands/saml.js'
import { completeSsoSignIn, recordSsoSignInFailure } from '../../commands/sso.js'
import { SESSION_TTL_MS } from '../../domain/people/policy.js'
import { domainOfEmail } from '../../domain/sso/domains.js'
import type { SsoFailureReason } from '../../domain/sso/events.js'
import { SAML_RESPONSE_MAX_BYTES, SSO_STATE_TTL_MS } from '../../domain/sso/policy.js'
import { checkSamlAssertion } from '../../domain/sso/saml-checks.js'
import type { SamlProviderState } from '../../domain/sso/saml-provider.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { parseCookies, serializeCookie } from '../people/cookies.js'
import { formOf } from '../people/form-steps.js'
import { pageResponse, ReturnTo } from '../people/page-responses.js'
import { safeReturnTo, setSessionCookie } from '../people/session.js'
import { secureCookies } from '../people/settings.js'
import { acceptForms } from '../platform/form-input.js'
import { route, type RouteGroup } from '../platform/route.js'
import type { SsoPagesDeps } from '../sso/pages-deps.js'
import { signInPages } from '../sso/sign-in-pages.js'
import { browserHashOf, claimLoginRequest, firstSightOfAssertion, recordLoginRequest } from './login-requests.js'
import { spMetadataXml } from './sp-metadata.js'
import { samlUrls } from './urls.js'
import { verifySamlResponse } from './verify-response.js'

/**
 * SAML 2.0 sign-in (spec Authentication 7): GET /saml/<key>/metadata (the SP metadata), GET /saml/<key>/login
 * (SP-initiated: an HTTP-Redirect AuthnRequest, its ID recorded for 10 minutes, single use) and POST
 * /saml/<key>/acs (the HTTP-POST Response). At the ACS: the Response is verified (verify-response.ts:
 * saml2-js's signature, status and audience checks, no encryption, one assertion), judged
 * (domain/sso/saml-checks.ts: issuer, destination, recipient, audience, times, InResponseTo), its assertion id
 * must be new (the replay cache), the InResponseTo must be a request this service issued to this browser,
 * and then the sign-in is what OIDC's is (commands/sso.ts `completeSsoSignIn`).
 *
 * Browser binding: /login sets `rr_saml` (its digest is kept with the request), and the ACS requires it back.
 * The IdP's POST is cross-site, so over https the cookie is SameSite=None (Secure); over plain http browsers
 * refuse None and it is Lax, which comes back only from an IdP on the same site (development, the tests).
 * An unsolicited (IdP-initiated) response, when the provider allows it, has no request and so no binding.
 */
const KEY = /^[a-z0-9]{20,40}$/
const cookieName = (secure: boolean) => (secure ? '__Host-rr_saml' : 'rr_saml')

/** The provider a key names (the key never changes, so the read model finds it; the stream decides). */
async function providerByKey(deps: SsoPagesDeps, key: string): Promise<SamlProviderState | null> {
  if (!KEY.test(key)) return null
  const row = await deps.read.selectFrom('saml_providers').select('id').where('provider_key', '=', key).executeTakeFirst()
  if (!row) return null
  const provider = await loadSamlProvider(deps.write, Number(row.id))
  return provider.exists && !provider.deleted ? provider : null
}
const urlsOf = (deps: SsoPagesDeps, request: FastifyRequest, provider: SamlProviderState) =>
  samlUrls(baseUrlOf(request, deps.sso.baseUrl), provider.providerKey!)
const idpOf = (saml2js: typeof saml2, provider: SamlProviderState) =>
  new saml2js.IdentityProvider({ sso_login_url: provider.settings!.sso_url, certificates: [...provider.settings!.certificates] })

const KeyParams = z.object({
  key: z.string().meta({ pattern: '^[a-z0-9]{20,40}$' }).describe("The SAML provider's key (in the URLs the SAML provider RPCs give)"),
})
const KEY_EXAMPLE = { key: 'k7q2m9x4c8v1b5n3z6w0' }
const UNKNOWN = pageResponse('The provider is unknown or deleted (for /login and /acs: or deactivated).')
const PAUSED = pageResponse('Signing in is paused for maintenance.')

export const samlMetadataRoute = route<SsoPagesDeps, typeof KeyParams>({
  method: 'GET',
  path: '/saml/:key/metadata',
  operationId: 'saml_metadata',
  summary: 'SAML: the service provider metadata (also the SP entity id)',
  description:
    'For the identity provider: the entity id (this URL) and the HTTP-POST Assertion Consumer Service. No signing or encryption keys: requests are unsigned and assertions are not encrypted.',
  tag: 'sign-in',
  auth: 'public',
  params: KeyParams,
  responses: {
    200: {
      description: 'The SAML 2.0 metadata.',
      type: 'application/samlmetadata+xml',
      schema: z.string().describe('An md:EntityDescriptor'),
    },
    404: UNKNOWN,
  },
  example: {
    params: KEY_EXAMPLE,
    response: {
      status: 200,
      body: spMetadataXml({
        entityId: 'https://api.example.com/saml/k7q2m9x4c8v1b5n3z6w0/metadata',
        acsUrl: 'https://api.example.com/saml/k7q2m9x4c8v1b5n3z6w0/acs',
      }),
    },
  },
  handler: async ({ request, reply, deps, input }) => {
    const provider = await providerByKey(deps, input.params().key)
    if (!provider) return signInPages(deps).unknownProvider(reply)
    const urls = urlsOf(deps, request, provider)
    return reply
      .code(200)
      .header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
      .send(spMetadataXml({ entityId: urls.entityId, acsUrl: urls.acs }))
  },
})

const LoginQuery = z.object({ return_to: ReturnTo })

export const samlLoginRoute = route<SsoPagesDeps, typeof KeyParams, typeof LoginQuery>({
  method: 'GET',
  path: '/saml/:key/login',
  operationId: 'saml_login',
  summary: 'SAML: start at the identity provider (SP-initiated)',
  description:
    'Sends the browser to the IdP with an HTTP-Redirect AuthnRequest, whose ID is recorded for 10 minutes (single use) and bound to this browser with a cookie.',
  tag: 'sign-in',
  auth: 'public',
  params: KeyParams,
  query: LoginQuery,
  responses: {
    303: {
      description: "To the IdP's single sign-on URL.",
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The rr_saml cookie binding the sign-in to this browser' },
    },
    404: UNKNOWN,
    503: PAUSED,
  },
  example: { params: KEY_EXAMPLE, query: { return_to: '/account' } },
  handler: async ({ request, reply, deps, input }) => {
    const { writesOff, unknownProvider } = signInPages(deps)
    const secure = secureCookies(deps.people)
    const provider = await providerByKey(deps, input.params().key)
    if (!provider?.active) return unknownProvider(reply)
    if (await writesOff(request, reply)) return reply
    const urls = urlsOf(deps, request, provider)
    const { default: saml2js } = await import('saml2-js')
    const sp = new saml2js.ServiceProvider({ entity_id: urls.entityId, assert_endpoint: urls.acs })
    const { url, requestId } = await new Promise<{ url: string; requestId: string }>((resolve, reject) =>
      sp.create_login_request_url(idpOf(saml2js, provider), {}, (error, url, requestId) =>
        error ? reject(error) : resolve({ url, requestId }),
      ),
    )
    // One binding value per browser (kept if present, so two sign-ins started in parallel both work).
    let browserToken = parseCookies(request.headers.cookie).get(cookieName(secure))
    if (!browserToken || !/^[A-Za-z0-9_-]{32,64}$/.test(browserToken)) browserToken = randomBytes(32).toString('base64url')
    reply.header(
      'Set-Cookie',
      serializeCookie(cookieName(secure), browserToken, { secure, sameSite: 'None', maxAgeSeconds: SSO_STATE_TTL_MS / 1000 }),
    )
    const returnTo = safeReturnTo((request.query as Record<string, unknown>).return_to)
    await recordLoginRequest(deps.db, { requestId, providerId: provider.providerId, browserToken, returnTo, now: deps.write.clock() })
    return reply.code(303).header('Cache-Control', 'no-store').header('Location', url).send()
  },
})

const AcsForm = z.object({
  SAMLResponse: z.string().describe('The base64 SAML Response the IdP posts (HTTP-POST binding)'),
  RelayState: z.string().optional().describe('For an unsolicited response: the path to go to after signing in'),
})

export const samlAcsRoute = route<SsoPagesDeps, typeof KeyParams, z.ZodNever, typeof AcsForm>({
  method: 'POST',
  path: '/saml/:key/acs',
  operationId: 'saml_acs',
  summary: 'SAML: the Assertion Consumer Service (HTTP-POST)',
  description:
    'The IdP posts the Response here: verified (signature, status, audience, issuer, destination, recipient, times, a new assertion id, InResponseTo a request of this browser), then the person is signed in (session cookie) and sent on. A refusal is recorded with its reason; the page says only whether the request was stale (400) or sign-on did not let them in (403).',
  tag: 'sign-in',
  auth: 'public',
  params: KeyParams,
  body: { type: 'application/x-www-form-urlencoded', schema: AcsForm, required: true },
  responses: {
    303: {
      description: 'Signed in: on to the return path, else /account.',
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The session cookie' },
    },
    400: pageResponse('The sign-in request expired, was used or was started in another browser.'),
    403: pageResponse('Single sign-on did not let the person in (an invalid response included).'),
    404: UNKNOWN,
    503: PAUSED,
  },
  example: {
    params: KEY_EXAMPLE,
    body: {
      SAMLResponse: 'PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIC4uLg==',
      RelayState: '/account',
    },
  },
  handler: async ({ request, reply, deps, input }) => {
    const { settle, context, writesOff, unknownProvider, refused } = signInPages(deps)
    const { people, sso } = deps
    const secure = secureCookies(people)
    const provider = await providerByKey(deps, input.params().key)
    if (!provider) return unknownProvider(reply)
    if (await writesOff(request, reply)) return reply
    const form = formOf(request)
    const fail = async (
      reason: SsoFailureReason,
      extra: { detail?: string | null; subject?: string | null; emailDomain?: string | null } = {},
    ) => {
      const position = await recordSsoSignInFailure(deps.write, context(request), {
        providerId: provider.providerId,
        orgId: provider.orgId!,
        protocol: 'saml',
        reason,
        ...extra,
      })
      return refused(reply, request, reason, position)
    }
    if (!provider.active) return fail('provider_unavailable', { detail: 'the provider is deactivated' })
    if (typeof form.SAMLResponse !== 'string' || form.SAMLResponse === '')
      return fail('saml_response_invalid', { detail: 'no SAMLResponse in the form' })

    const urls = urlsOf(deps, request, provider)
    const settings = provider.settings!
    const verified = await verifySamlResponse({
      samlResponse: form.SAMLResponse,
      certificates: settings.certificates,
      spEntityId: urls.entityId,
      acsUrl: urls.acs,
      ssoUrl: settings.sso_url,
    })
    if (!verified.ok) return fail(verified.reason, { detail: verified.detail })
    const subject = verified.nameId
    // A NameID that is an email is recorded on a refusal as its domain only (recordSsoSignInFailure drops it).
    const nameIdDomain = subject === null ? null : domainOfEmail(subject.trim().toLowerCase())
    const now = deps.write.clock()
    const checked = checkSamlAssertion(verified.facts, {
      idpEntityId: settings.idp_entity_id,
      spEntityId: urls.entityId,
      acsUrl: urls.acs,
      allowUnsolicited: settings.allow_unsolicited,
      now,
    })
    if (!checked.ok) return fail(checked.reason, { detail: checked.detail, subject, emailDomain: nameIdDomain })
    if (verified.facts.assertionId === '')
      return fail('saml_response_invalid', { detail: 'the assertion has no ID', subject, emailDomain: nameIdDomain })
    // The replay cache first, so a response posted twice is named for what it is.
    if (
      !(await firstSightOfAssertion(deps.db, {
        providerId: provider.providerId,
        assertionId: verified.facts.assertionId,
        until: checked.replayUntil,
      }))
    ) {
      return fail('assertion_replayed', {
        detail: `assertion ${verified.facts.assertionId.slice(0, 200)}`,
        subject,
        emailDomain: nameIdDomain,
      })
    }

    let returnTo: string | null
    if (checked.inResponseTo === null) {
      returnTo = safeReturnTo(form.RelayState)
    } else {
      const claim = await claimLoginRequest(deps.db, { requestId: checked.inResponseTo, providerId: provider.providerId, now })
      if (!claim.ok)
        return fail(claim.problem, { detail: `InResponseTo ${checked.inResponseTo.slice(0, 200)}`, subject, emailDomain: nameIdDomain })
      const browserToken = parseCookies(request.headers.cookie).get(cookieName(secure))
      if (!browserToken || browserHashOf(browserToken) !== claim.browserHash)
        return fail('browser_mismatch', { subject, emailDomain: nameIdDomain })
      returnTo = claim.returnTo
    }

    const attribute = settings.email_attribute
    const email = attribute === '' ? subject : (verified.attributes[attribute]?.[0] ?? null)
    const outcome = await completeSsoSignIn(deps.write, {
      provider: { protocol: 'saml', providerId: provider.providerId, rules: samlRulesOf(provider, sso.publicSignup) },
      subject: (subject ?? email ?? '').slice(0, 2000),
      // The IdP's signed assertion is what vouches for the address: a SAML email counts as verified.
      identity: { email, emailVerified: true, hostedDomain: undefined },
      requestId: request.id,
    })
    if (!outcome.ok) return refused(reply, request, outcome.reason, outcome.position)
    await settle(outcome.position)
    setSessionCookie(reply, people, outcome.sessionToken, SESSION_TTL_MS / 1000)
    return reply
      .code(303)
      .header('Cache-Control', 'no-store')
      .header('Location', returnTo ?? '/account')
      .send()
  },
})

/** The SAML routes, in their own scope: the ACS takes a base64 Response of up to SAML_RESPONSE_MAX_BYTES, plus RelayState. */
export const samlRouteGroup: RouteGroup<SsoPagesDeps> = {
  routes: [samlMetadataRoute, samlLoginRoute, samlAcsRoute],
  setup: (scope) => acceptForms(scope, { bodyLimit: Math.ceil((SAML_RESPONSE_MAX_BYTES * 4) / 3) + 16 * 1024, repeated: 'first' }),
}
