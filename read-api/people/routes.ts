import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  acceptInvite,
  confirmTotp,
  requestPasswordReset,
  sha256,
  signIn,
  signOut,
  usePasswordReset,
  type PeopleDeps,
} from '../../commands/people.js'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import type { Position } from '../../commands/event-store/port.js'
import { LOCKOUT_DURATION_MS, LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, SESSION_TTL_MS } from '../../domain/people/policy.js'
import { ROLE_LABELS } from '../../domain/people/roles.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { ApiError } from '../errors.js'
import { acceptForms } from '../platform/form-input.js'
import { requireWritesEnabled } from '../platform/writes-switch.js'
import { csrfToken, csrfValid, CSRF_FIELD } from './csrf.js'
import { errorBox, html, noticeBox, sendPage, type Raw } from './html.js'
import { requireSignedIn, safeReturnTo, sessionTokenOf, setSessionCookie, signedInMember } from './session.js'
import type { PeopleSettings } from './settings.js'
import { CONNECTED_APPS_PATH } from '../routes/oauth-connected-apps.js'

/**
 * The sign-in pages: GET/POST /login, GET/POST /invite/<token> (+ /confirm), GET/POST /password-reset (and
 * /password-reset/<token>), GET /account, POST /logout. Forms are application/x-www-form-urlencoded; every
 * POST checks the CSRF token first. Every change is a command (events); a page that changed something waits
 * until the read models show it before it redirects, so the next page sees it.
 */
export interface PeopleRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly settings: { readonly people?: PeopleSettings }
}

type Form = Record<string, string>

const FAILED_MESSAGE = `Sign-in failed: the email, password or code is wrong, or the account is locked after ${LOCKOUT_FAILURES} failed attempts in ${
  LOCKOUT_WINDOW_MS / 60_000
} minutes (for ${LOCKOUT_DURATION_MS / 60_000} minutes).`

const send = (reply: FastifyReply, status: number, title: string, body: Raw): FastifyReply => sendPage(reply, status, title, body)

const field = (form: Form, name: string) => (typeof form[name] === 'string' ? form[name]! : '')

export async function peopleRoutes(app: FastifyInstance, deps: PeopleRouteDeps): Promise<void> {
  const people = deps.settings.people
  if (!people) return
  const peopleDeps: PeopleDeps = { ...deps.write, serviceKey: people.serviceKey }

  // Forms only in this scope (the API itself takes JSON only); refused text in a field or the query is a 400.
  acceptForms(app, { bodyLimit: 16 * 1024, repeated: 'first' })

  const settle = async (position: Position | null) => {
    if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
  }
  const context = (request: FastifyRequest, actor: CommandContext['actor']): CommandContext => ({ actor, requestId: request.id, correlationId: request.id, causationId: null })
  const csrfInput = (request: FastifyRequest, reply: FastifyReply) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(request, reply, people)}">`
  const formOf = (request: FastifyRequest): Form => (request.body && typeof request.body === 'object' ? (request.body as Form) : {})

  /**
   * Every POST: the CSRF check first (a refusal is a 403 page), then the operator's writes switch (every POST
   * here records events; while writes are off it is a 503 page with Retry-After).
   */
  const checkCsrf = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (!csrfValid(request, people, formOf(request))) {
      void send(reply, 403, 'Form expired', html`${errorBox('The form expired or did not come from this site. Go back, reload the page and try again.', 'csrf_failed')}`)
      return false
    }
    try {
      await requireWritesEnabled(request, reply)
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'writes_disabled')) throw error
      void send(reply, 503, 'Paused for maintenance', html`${errorBox('Signing in and account changes are paused for maintenance. Try again in a minute.', 'writes_disabled')}`)
      return false
    }
    return true
  }

  // ---- /login ----
  const loginForm = (request: FastifyRequest, reply: FastifyReply, options: { email?: string; returnTo: string | null; message?: Raw }) => html`
${options.message ?? ''}
<form method="post" action="/login">
${csrfInput(request, reply)}
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

  app.get<{ Querystring: Record<string, string> }>('/login', async (request, reply) => {
    const returnTo = safeReturnTo(request.query.return_to)
    const member = await signedInMember(request)
    if (member) return reply.code(303).header('Location', returnTo ?? '/account').send()
    const q = request.query
    const notice = q.enrolled ? 'Your account is ready: sign in with your password and a code from your authenticator app.' : q.reset ? 'Your password is changed: sign in with it.' : q.signed_out ? 'You are signed out.' : null
    return send(reply, 200, 'Sign in', loginForm(request, reply, { returnTo, ...(notice ? { message: noticeBox(notice) } : {}) }))
  })

  app.post('/login', async (request, reply) => {
    if (!(await checkCsrf(request, reply))) return reply
    const form = formOf(request)
    const returnTo = safeReturnTo(form.return_to)
    const outcome = await signIn(peopleDeps, { email: field(form, 'email'), password: field(form, 'password'), code: field(form, 'code'), requestId: request.id })
    if (!outcome.ok) {
      return send(reply, 401, 'Sign in', loginForm(request, reply, { email: field(form, 'email'), returnTo, message: errorBox(FAILED_MESSAGE, 'sign_in_failed') }))
    }
    await settle(outcome.position)
    setSessionCookie(reply, people, outcome.sessionToken, SESSION_TTL_MS / 1000)
    return reply.code(303).header('Location', returnTo ?? '/account').send()
  })

  // ---- /account and /logout ----
  app.get('/account', async (request, reply) => {
    const member = await requireSignedIn(request, reply)
    if (!member) return reply
    return send(
      reply,
      200,
      'Your account',
      html`<p>Signed in as <strong>${member.email}</strong>, ${ROLE_LABELS[member.role]} of organization ${member.orgId}.</p>
<p><a href="${CONNECTED_APPS_PATH}">Connected apps</a>: the apps you have let act for you, and disconnecting them.</p>
<form method="post" action="/logout">${csrfInput(request, reply)}<button type="submit">Sign out</button></form>`,
    )
  })

  app.post('/logout', async (request, reply) => {
    if (!(await checkCsrf(request, reply))) return reply
    const member = await signedInMember(request)
    const token = sessionTokenOf(request)
    if (member && token) {
      const out = await signOut(deps.write, context(request, { kind: 'user', id: member.userId }), { userId: member.userId, sessionToken: token })
      await settle(out.position)
    }
    setSessionCookie(reply, people, null, 0)
    return reply.code(303).header('Location', '/login?signed_out=1').send()
  })

  // ---- /invite/<token> ----
  const inviteOf = async (token: string) => {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null
    const row = await deps.read
      .selectFrom('member_invites as i')
      .innerJoin('org_members as m', 'm.user_id', 'i.user_id')
      .select(['i.user_id', 'm.email', 'm.role', 'm.org_id'])
      .where('i.token_hash', '=', sha256(token))
      .where('i.expires_at', '>', deps.write.clock())
      .where('m.status', '=', 'invited')
      .executeTakeFirst()
    return row ?? null
  }
  const inviteInvalid = (reply: FastifyReply) =>
    send(reply, 404, 'Invite', html`${errorBox('This invite link is unknown, used or expired. Ask an owner of your organization for a new one.', 'invite_invalid')}`)
  const passwordForm = (request: FastifyRequest, reply: FastifyReply, action: string, message?: Raw) => html`
${message ?? ''}
<form method="post" action="${action}">
${csrfInput(request, reply)}
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="200" required aria-describedby="pw-hint">
<p id="pw-hint" class="hint">At least 12 characters.</p>
<label for="confirm">Repeat the password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">Continue</button>
</form>`
  const confirmForm = (request: FastifyRequest, reply: FastifyReply, token: string) => html`
<form method="post" action="/invite/${token}/confirm">
${csrfInput(request, reply)}
<label for="code">The 6-digit code your app shows now</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required>
<button type="submit">Confirm and finish</button>
</form>`

  app.get<{ Params: { token: string } }>('/invite/:token', async (request, reply) => {
    const invite = await inviteOf(request.params.token)
    if (!invite) return inviteInvalid(reply)
    return send(
      reply,
      200,
      'Join your organization',
      html`<p>You are invited as <strong>${ROLE_LABELS[invite.role as keyof typeof ROLE_LABELS] ?? invite.role}</strong> with the email <strong>${invite.email}</strong>. Choose a password; next you set up an authenticator app.</p>
${passwordForm(request, reply, `/invite/${request.params.token}`)}`,
    )
  })

  app.post<{ Params: { token: string } }>('/invite/:token', async (request, reply) => {
    if (!(await checkCsrf(request, reply))) return reply
    const token = request.params.token
    const invite = await inviteOf(token)
    if (!invite) return inviteInvalid(reply)
    const form = formOf(request)
    const password = field(form, 'password')
    const retry = (message: string, code: string) => send(reply, 400, 'Join your organization', passwordForm(request, reply, `/invite/${token}`, errorBox(message, code)))
    if (password !== field(form, 'confirm')) return retry('The two passwords differ.', 'password_mismatch')
    try {
      const issued = await acceptInvite(peopleDeps, context(request, { kind: 'user', id: invite.user_id }), { userId: invite.user_id, token, password })
      await settle(issued.position)
      return send(
        reply,
        200,
        'Set up your authenticator',
        html`<p>Add this account to your authenticator app (any TOTP app): open the link on your phone, or type the key by hand.</p>
<p><a href="${issued.otpauthUri}">${issued.otpauthUri}</a></p>
<p>Key: <span class="secret">${issued.secretBase32}</span></p>
<p><strong>Recovery codes</strong>: each signs you in once instead of a code. Keep them somewhere safe: they are shown only now.</p>
<ul class="codes">${issued.recoveryCodes.map((c) => html`<li>${c}</li>`)}</ul>
${confirmForm(request, reply, token)}`,
      )
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'password_too_weak' || error.code === 'invite_invalid')) {
        return error.code === 'invite_invalid' ? inviteInvalid(reply) : retry('The password needs at least 12 characters (at most 200).', error.code)
      }
      // The address already signs in to an account (made after this invite, by another organization's invite
      // or the operator): one address is one person at sign-in, so this invite cannot make a second account.
      if (error instanceof DomainError && error.code === 'email_taken') {
        return send(
          reply,
          409,
          'Join your organization',
          html`${errorBox('This email address already has an account here. Sign in with it; to join this organization with it instead, its current organization must remove it first.', 'email_taken')}`,
        )
      }
      throw error
    }
  })

  app.post<{ Params: { token: string } }>('/invite/:token/confirm', async (request, reply) => {
    if (!(await checkCsrf(request, reply))) return reply
    const token = request.params.token
    const invite = await inviteOf(token)
    if (!invite) return inviteInvalid(reply)
    try {
      const out = await confirmTotp(peopleDeps, context(request, { kind: 'user', id: invite.user_id }), { userId: invite.user_id, token, code: field(formOf(request), 'code') })
      await settle(out.position)
      return reply.code(303).header('Location', '/login?enrolled=1').send()
    } catch (error) {
      if (error instanceof DomainError && error.code === 'totp_code_wrong') {
        return send(
          reply,
          400,
          'Set up your authenticator',
          html`${errorBox('The code does not match. Check the app shows this account, then type the code it shows now.', 'totp_code_wrong')}${confirmForm(request, reply, token)}`,
        )
      }
      if (error instanceof DomainError && error.code === 'invite_invalid') return inviteInvalid(reply)
      throw error
    }
  })

  // ---- /password-reset ----
  const requestForm = (request: FastifyRequest, reply: FastifyReply) => html`
<form method="post" action="/password-reset">
${csrfInput(request, reply)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<button type="submit">Send a reset link</button>
</form>`

  app.get('/password-reset', async (request, reply) => send(reply, 200, 'Reset your password', requestForm(request, reply)))

  app.post('/password-reset', async (request, reply) => {
    if (!(await checkCsrf(request, reply))) return reply
    const issued = await requestPasswordReset(deps.write, context(request, { kind: 'system', id: 'password-reset' }), { email: field(formOf(request), 'email') })
    if (issued) {
      await settle(issued.position)
      if (people.deliverPasswordReset) {
        await people.deliverPasswordReset({ userId: issued.userId, email: issued.email, link: `${baseUrlOf(request, people.baseUrl)}/password-reset/${issued.token}`, expiresAt: issued.expiresAt })
      } else {
        request.log.warn({ user_id: issued.userId }, 'password reset requested, but no delivery is configured: the operator can issue a link with `npm run ops -- reset-password`')
      }
    }
    // The same answer whether or not the email belongs to anyone.
    return send(
      reply,
      200,
      'Reset your password',
      noticeBox(
        'If this email belongs to a member, a reset link valid for 30 minutes is on its way. This service does not send email by itself: if nothing arrives, ask the operator for a link.',
      ),
    )
  })

  const resetOf = async (token: string) => {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null
    const row = await deps.read
      .selectFrom('password_resets')
      .select(['user_id'])
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('invalidated_at', 'is', null)
      .where('expires_at', '>', deps.write.clock())
      .executeTakeFirst()
    return row ?? null
  }
  const resetInvalid = (reply: FastifyReply) =>
    send(reply, 400, 'Reset your password', html`${errorBox('This reset link is unknown, used or expired.', 'password_reset_invalid')}<p><a href="/password-reset">Ask for a new link</a></p>`)

  app.get<{ Params: { token: string } }>('/password-reset/:token', async (request, reply) => {
    const reset = await resetOf(request.params.token)
    if (!reset) return resetInvalid(reply)
    return send(reply, 200, 'Choose a new password', passwordForm(request, reply, `/password-reset/${request.params.token}`))
  })

  app.post<{ Params: { token: string } }>('/password-reset/:token', async (request, reply) => {
    if (!(await checkCsrf(request, reply))) return reply
    const token = request.params.token
    const reset = await resetOf(token)
    if (!reset) return resetInvalid(reply)
    const form = formOf(request)
    const password = field(form, 'password')
    const retry = (message: string, code: string) => send(reply, 400, 'Choose a new password', passwordForm(request, reply, `/password-reset/${token}`, errorBox(message, code)))
    if (password !== field(form, 'confirm')) return retry('The two passwords differ.', 'password_mismatch')
    try {
      const out = await usePasswordReset(deps.write, context(request, { kind: 'user', id: reset.user_id }), { userId: reset.user_id, token, password })
      await settle(out.position)
      return reply.code(303).header('Location', '/login?reset=1').send()
    } catch (error) {
      if (error instanceof DomainError && error.code === 'password_too_weak') return retry('The password needs at least 12 characters (at most 200).', error.code)
      if (error instanceof DomainError && error.code === 'password_reset_invalid') return resetInvalid(reply)
      throw error
    }
  })
}
