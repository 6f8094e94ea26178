import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { signIn, signOut } from '../../commands/people.js'
import { LOCKOUT_DURATION_MS, LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, SESSION_TTL_MS } from '../../domain/people/policy.js'
import { ROLE_LABELS } from '../../domain/people/roles.js'
import { route } from '../platform/route.js'
import { CONNECTED_APPS_PATH } from '../routes/oauth-connected-apps.js'
import { checkCsrf, commandContext, csrfInput, field, formOf, peopleCommandDeps, send, settle, type SignInPagesDeps } from './form-steps.js'
import { errorBox, html, noticeBox, type Raw } from './html.js'
import { CSRF_EXAMPLE, CsrfField, pageExample, pageResponse, redirectResponse, ReturnTo } from './page-responses.js'
import { requireSignedIn, safeReturnTo, sessionTokenOf, setSessionCookie, signedInMember } from './session.js'

const FAILED_MESSAGE = `Sign-in failed: the email, password or code is wrong, or the account is locked after ${LOCKOUT_FAILURES} failed attempts in ${
  LOCKOUT_WINDOW_MS / 60_000
} minutes (for ${LOCKOUT_DURATION_MS / 60_000} minutes).`

const loginForm = (
  deps: SignInPagesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { email?: string; returnTo: string | null; message?: Raw },
) => html`
${options.message ?? ''}
<form method="post" action="/login">
${csrfInput(deps, request, reply)}
${options.returnTo === null ? '' : html`<input type="hidden" name="return_to" value="${options.returnTo}">`}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<label for="code">Authenticator code or recovery code</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="text" required aria-describedby="code-hint">
<p id="code-hint" class="hint">The 6 digits your authenticator app shows, or one of your recovery codes (each works once).</p>
<button type="submit">Sign in</button>
</form>
<p><a href="/password-reset">Forgot your password?</a></p>
<p><a href="/login/sso${options.returnTo === null ? '' : `?return_to=${encodeURIComponent(options.returnTo)}`}">Sign in with your company account (single sign-on)</a></p>`

const LoginQuery = z.object({
  return_to: ReturnTo,
  enrolled: z.string().optional().describe('Set after an invite is accepted: the page says the account is ready'),
  reset: z.string().optional().describe('Set after a password reset: the page says the password is changed'),
  signed_out: z.string().optional().describe('Set after signing out: the page says so'),
})

export const loginPageRoute = route<SignInPagesDeps, z.ZodNever, typeof LoginQuery>({
  method: 'GET',
  path: '/login',
  operationId: 'login_page',
  summary: 'The sign-in page (email, password, authenticator code)',
  description: 'A member already signed in goes straight on to return_to (or /account).',
  tag: 'sign-in',
  auth: 'public',
  query: LoginQuery,
  responses: {
    200: pageResponse('The sign-in form.'),
    303: redirectResponse('Already signed in: on to return_to, else /account.'),
  },
  example: {
    query: { return_to: '/account/apps' },
    response: { status: 200, body: pageExample('Sign in', '<form method="post" action="/login">…</form>') },
  },
  handler: async ({ request, reply, deps }) => {
    const q = request.query as Record<string, unknown>
    const returnTo = safeReturnTo(q.return_to)
    const member = await signedInMember(request)
    if (member)
      return reply
        .code(303)
        .header('Location', returnTo ?? '/account')
        .send()
    const notice = q.enrolled
      ? 'Your account is ready: sign in with your password and a code from your authenticator app.'
      : q.reset
        ? 'Your password is changed: sign in with it.'
        : q.signed_out
          ? 'You are signed out.'
          : null
    return send(reply, 200, 'Sign in', loginForm(deps, request, reply, { returnTo, ...(notice ? { message: noticeBox(notice) } : {}) }))
  },
})

const LoginForm = z.object({
  csrf: CsrfField,
  email: z.string().describe("The member's email"),
  password: z.string().describe('The password'),
  code: z.string().describe('The 6 digits the authenticator app shows, or one of the recovery codes (each works once)'),
  return_to: ReturnTo,
})

export const loginRoute = route<SignInPagesDeps, z.ZodNever, z.ZodNever, typeof LoginForm>({
  method: 'POST',
  path: '/login',
  operationId: 'login',
  summary: 'Sign in (the sign-in form)',
  description: `Sets the session cookie and goes on to return_to (or /account). A wrong email, password or code, or a locked account (after ${LOCKOUT_FAILURES} failures in ${LOCKOUT_WINDOW_MS / 60_000} minutes), is one 401 page that does not say which.`,
  tag: 'sign-in',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: LoginForm, required: true },
  responses: {
    303: {
      description: 'Signed in: on to return_to, else /account.',
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The session cookie' },
    },
    401: pageResponse('Sign-in failed: the form again, with the message.'),
    403: pageResponse('The form expired or did not come from this site.'),
    503: pageResponse('Signing in is paused for maintenance.'),
  },
  example: {
    body: {
      csrf: CSRF_EXAMPLE,
      email: 'dana@acme.example',
      password: 'correct horse battery staple',
      code: '492039',
      return_to: '/account/apps',
    },
  },
  handler: async ({ request, reply, deps }) => {
    if (!(await checkCsrf(deps, request, reply))) return reply
    const form = formOf(request)
    const returnTo = safeReturnTo(form.return_to)
    const outcome = await signIn(peopleCommandDeps(deps), {
      email: field(form, 'email'),
      password: field(form, 'password'),
      code: field(form, 'code'),
      requestId: request.id,
    })
    if (!outcome.ok) {
      return send(
        reply,
        401,
        'Sign in',
        loginForm(deps, request, reply, { email: field(form, 'email'), returnTo, message: errorBox(FAILED_MESSAGE, 'sign_in_failed') }),
      )
    }
    await settle(deps, outcome.position)
    setSessionCookie(reply, deps.people, outcome.sessionToken, SESSION_TTL_MS / 1000)
    return reply
      .code(303)
      .header('Location', returnTo ?? '/account')
      .send()
  },
})

export const accountRoute = route<SignInPagesDeps>({
  method: 'GET',
  path: '/account',
  operationId: 'account_page',
  summary: 'Your account (a page for signed-in members)',
  description:
    'Who is signed in, in which organization and role, a link to Connected apps and the sign-out button; without a session, a redirect to /login and back.',
  tag: 'sign-in',
  auth: 'public',
  responses: {
    200: pageResponse('The account page.'),
    303: redirectResponse('To /login first, when nobody is signed in.'),
  },
  example: {
    response: {
      status: 200,
      body: pageExample('Your account', '<p>Signed in as <strong>dana@acme.example</strong>, Owner of organization 12.</p>…'),
    },
  },
  handler: async ({ request, reply, deps }) => {
    const member = await requireSignedIn(request, reply)
    if (!member) return reply
    return send(
      reply,
      200,
      'Your account',
      html`<p>Signed in as <strong>${member.email}</strong>, ${ROLE_LABELS[member.role]} of organization ${member.orgId}.</p>
<p><a href="${CONNECTED_APPS_PATH}">Connected apps</a>: the apps you have let act for you, and disconnecting them.</p>
<form method="post" action="/logout">${csrfInput(deps, request, reply)}<button type="submit">Sign out</button></form>`,
    )
  },
})

const LogoutForm = z.object({ csrf: CsrfField })

export const logoutRoute = route<SignInPagesDeps, z.ZodNever, z.ZodNever, typeof LogoutForm>({
  method: 'POST',
  path: '/logout',
  operationId: 'logout',
  summary: 'Sign out (the account page’s button)',
  description: 'Ends the session (recorded) and clears its cookie, then to /login?signed_out=1.',
  tag: 'sign-in',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: LogoutForm, required: true },
  responses: {
    303: {
      description: 'To /login?signed_out=1.',
      headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'The session cookie, cleared' },
    },
    403: pageResponse('The form expired or did not come from this site.'),
    503: pageResponse('Account changes are paused for maintenance.'),
  },
  example: { body: { csrf: CSRF_EXAMPLE } },
  handler: async ({ request, reply, deps }) => {
    if (!(await checkCsrf(deps, request, reply))) return reply
    const member = await signedInMember(request)
    const token = sessionTokenOf(request)
    if (member && token) {
      const out = await signOut(deps.write, commandContext(request, { kind: 'user', id: member.userId }), {
        userId: member.userId,
        sessionToken: token,
      })
      await settle(deps, out.position)
    }
    setSessionCookie(reply, deps.people, null, 0)
    return reply.code(303).header('Location', '/login?signed_out=1').send()
  },
})
