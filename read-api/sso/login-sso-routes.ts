import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { EmailSchema, normalizeEmail } from '../../domain/people/email.js'
import { domainOfEmail } from '../../domain/sso/domains.js'
import { csrfToken, csrfValid, CSRF_FIELD } from '../people/csrf.js'
import { formOf } from '../people/form-steps.js'
import { errorBox, html, noticeBox, sendPage, type Raw } from '../people/html.js'
import { CSRF_EXAMPLE, CsrfField, pageExample, pageResponse, redirectResponse, ReturnTo } from '../people/page-responses.js'
import { safeReturnTo } from '../people/session.js'
import { route } from '../platform/route.js'
import type { SsoPagesDeps } from './pages-deps.js'
import { providerForDomain } from './provider-for-domain.js'
import { signInPages } from './sign-in-pages.js'

/** /login/sso sends staff to their organization's provider (OIDC or SAML) by the domain of their work email. */
const ssoForm = (
  deps: SsoPagesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { email?: string; returnTo: string | null; message?: Raw },
) => html`
${options.message ?? ''}
<p>Sign in with your company account: type your work email and you are sent to your organization's identity provider.</p>
<form method="post" action="/login/sso">
<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(request, reply, deps.people)}">
${options.returnTo === null ? '' : html`<input type="hidden" name="return_to" value="${options.returnTo}">`}
<label for="email">Work email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
<button type="submit">Continue</button>
</form>
<p><a href="/login${options.returnTo === null ? '' : `?return_to=${encodeURIComponent(options.returnTo)}`}">Sign in with a password instead</a></p>`

// The form leads on (via /auth/oidc) to the provider's origin, which form-action 'self' would block.
const ssoPage = (reply: FastifyReply, status: number, body: Raw) =>
  sendPage(reply, status, 'Company sign-in', body, { formAction: "'self' https: http:" })

const SsoQuery = z.object({ return_to: ReturnTo })

export const loginSsoPageRoute = route<SsoPagesDeps, z.ZodNever, typeof SsoQuery>({
  method: 'GET',
  path: '/login/sso',
  operationId: 'login_sso_page',
  summary: 'Single sign-on: the work-email form',
  tag: 'sign-in',
  auth: 'public',
  query: SsoQuery,
  responses: { 200: pageResponse('The form for the work email.') },
  example: {
    query: { return_to: '/account' },
    response: { status: 200, body: pageExample('Company sign-in', '<form method="post" action="/login/sso">…</form>') },
  },
  handler: async ({ request, reply, deps }) =>
    ssoPage(reply, 200, ssoForm(deps, request, reply, { returnTo: safeReturnTo((request.query as Record<string, unknown>).return_to) })),
})

const SsoForm = z.object({
  csrf: CsrfField,
  email: z.string().describe('The work email: its domain names the provider'),
  return_to: ReturnTo,
})

export const loginSsoRoute = route<SsoPagesDeps, z.ZodNever, z.ZodNever, typeof SsoForm>({
  method: 'POST',
  path: '/login/sso',
  operationId: 'login_sso',
  summary: "Single sign-on: on to the organization's provider",
  description:
    "Finds the provider that claims the email's domain and sends the browser there: /auth/oidc/<provider> with the email as login_hint, or /saml/<key>/login. Without one, the form again with the same words whatever the reason (a typo, no provider).",
  tag: 'sign-in',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: SsoForm, required: true },
  responses: {
    200: pageResponse('No single sign-on for this email: the form again, with a notice.'),
    303: redirectResponse("To the provider's sign-in: /auth/oidc/<provider> or /saml/<key>/login."),
    403: pageResponse('The form expired or did not come from this site.'),
    503: pageResponse('Signing in is paused for maintenance.'),
  },
  example: { body: { csrf: CSRF_EXAMPLE, email: 'dana@acme.example', return_to: '/account' } },
  handler: async ({ request, reply, deps }) => {
    const form = formOf(request)
    if (!csrfValid(request, deps.people, form)) {
      return sendPage(
        reply,
        403,
        'Form expired',
        html`${errorBox('The form expired or did not come from this site. Go back, reload the page and try again.', 'csrf_failed')}`,
      )
    }
    if (await signInPages(deps).writesOff(request, reply)) return reply
    const returnTo = safeReturnTo(form.return_to)
    const parsed = EmailSchema.safeParse(form.email ?? '')
    const domain = parsed.success ? domainOfEmail(normalizeEmail(parsed.data)) : null
    const found = domain === null ? null : await providerForDomain(deps.read, domain)
    if (!found) {
      // The same words whatever the reason: a typo, no provider, or a domain nobody configured.
      return ssoPage(
        reply,
        200,
        ssoForm(deps, request, reply, {
          email: form.email ?? '',
          returnTo,
          message: noticeBox(
            'Single sign-on is not available for this email. Check the address, sign in with your password, or ask an owner of your organization.',
          ),
        }),
      )
    }
    if (found.protocol === 'saml') {
      // SAML has no standard login hint in an HTTP-Redirect AuthnRequest: the IdP asks for the address itself.
      return reply
        .code(303)
        .header('Location', `/saml/${found.key}/login${returnTo === null ? '' : `?return_to=${encodeURIComponent(returnTo)}`}`)
        .send()
    }
    const query = new URLSearchParams({ login_hint: normalizeEmail(parsed.success ? parsed.data : '') })
    if (returnTo !== null) query.set('return_to', returnTo)
    return reply.code(303).header('Location', `/auth/oidc/${found.id}?${query}`).send()
  },
})
