import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { acceptInvite, confirmTotp, sha256 } from '../../commands/people.js'
import { ROLE_LABELS } from '../../domain/people/roles.js'
import { DomainError } from '../../domain/shared/errors.js'
import { route } from '../platform/route.js'
import {
  checkCsrf,
  commandContext,
  csrfInput,
  field,
  formOf,
  passwordForm,
  peopleCommandDeps,
  send,
  settle,
  type SignInPagesDeps,
} from './form-steps.js'
import { errorBox, html } from './html.js'
import { CSRF_EXAMPLE, CsrfField, pageExample, pageResponse, redirectResponse } from './page-responses.js'

/** An open invite by its link's token: unknown, used and expired ones are all null. */
async function inviteOf(deps: SignInPagesDeps, token: string) {
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
  send(
    reply,
    404,
    'Invite',
    html`${errorBox('This invite link is unknown, used or expired. Ask an owner of your organization for a new one.', 'invite_invalid')}`,
  )

const confirmForm = (deps: SignInPagesDeps, request: FastifyRequest, reply: FastifyReply, token: string) => html`
<form method="post" action="/invite/${token}/confirm">
${csrfInput(deps, request, reply)}
<label for="code">The 6-digit code your app shows now</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required>
<button type="submit">Confirm and finish</button>
</form>`

const InviteParams = z.object({
  token: z.string().meta({ pattern: '^[A-Za-z0-9_-]{20,100}$' }).describe('The token of the invite link an owner sent'),
})
const INVITE_TOKEN = 'Zx8kq2LmN4pR7sT1vW3yA5bC'
const INVALID = pageResponse('The invite link is unknown, used or expired.')

export const invitePageRoute = route<SignInPagesDeps, typeof InviteParams>({
  method: 'GET',
  path: '/invite/:token',
  operationId: 'invite_page',
  summary: 'Accept an invite: choose a password',
  description: 'The first step of joining: the role and email of the invite, and a form for the password. Next comes the authenticator.',
  tag: 'sign-in',
  auth: 'public',
  params: InviteParams,
  responses: { 200: pageResponse('The password form.'), 404: INVALID },
  example: { params: { token: INVITE_TOKEN } },
  handler: async ({ request, reply, deps, input }) => {
    const { token } = input.params()
    const invite = await inviteOf(deps, token)
    if (!invite) return inviteInvalid(reply)
    return send(
      reply,
      200,
      'Join your organization',
      html`<p>You are invited as <strong>${ROLE_LABELS[invite.role as keyof typeof ROLE_LABELS] ?? invite.role}</strong> with the email <strong>${invite.email}</strong>. Choose a password; next you set up an authenticator app.</p>
${passwordForm(deps, request, reply, `/invite/${token}`)}`,
    )
  },
})

const PasswordForm = z.object({
  csrf: CsrfField,
  password: z.string().describe('The new password: 12 to 200 characters'),
  confirm: z.string().describe('The same password again'),
})

export const acceptInviteRoute = route<SignInPagesDeps, typeof InviteParams, z.ZodNever, typeof PasswordForm>({
  method: 'POST',
  path: '/invite/:token',
  operationId: 'accept_invite',
  summary: 'Accept an invite: set the password, get the authenticator secret',
  description:
    'Sets the password and answers the authenticator setup page: the otpauth link, its key and the recovery codes (shown only now), and the form for the first code. An email that already has an account is a 409 page.',
  tag: 'sign-in',
  auth: 'public',
  params: InviteParams,
  body: { type: 'application/x-www-form-urlencoded', schema: PasswordForm, required: true },
  responses: {
    200: pageResponse('The authenticator setup page.'),
    400: pageResponse('The passwords differ or the password is too short: the form again.'),
    403: pageResponse('The form expired or did not come from this site.'),
    404: INVALID,
    409: pageResponse('The email already has an account here.'),
    503: pageResponse('Account changes are paused for maintenance.'),
  },
  example: {
    params: { token: INVITE_TOKEN },
    body: { csrf: CSRF_EXAMPLE, password: 'correct horse battery staple', confirm: 'correct horse battery staple' },
    response: {
      status: 200,
      body: pageExample('Set up your authenticator', '<p><a href="otpauth://totp/RankRelay:dana%40acme.example?secret=…">…</a></p>…'),
    },
  },
  handler: async ({ request, reply, deps, input }) => {
    if (!(await checkCsrf(deps, request, reply))) return reply
    const { token } = input.params()
    const invite = await inviteOf(deps, token)
    if (!invite) return inviteInvalid(reply)
    const form = formOf(request)
    const password = field(form, 'password')
    const retry = (message: string, code: string) =>
      send(reply, 400, 'Join your organization', passwordForm(deps, request, reply, `/invite/${token}`, errorBox(message, code)))
    if (password !== field(form, 'confirm')) return retry('The two passwords differ.', 'password_mismatch')
    try {
      const issued = await acceptInvite(peopleCommandDeps(deps), commandContext(request, { kind: 'user', id: invite.user_id }), {
        userId: invite.user_id,
        token,
        password,
      })
      await settle(deps, issued.position)
      return send(
        reply,
        200,
        'Set up your authenticator',
        html`<p>Add this account to your authenticator app (any TOTP app): open the link on your phone, or type the key by hand.</p>
<p><a href="${issued.otpauthUri}">${issued.otpauthUri}</a></p>
<p>Key: <span class="secret">${issued.secretBase32}</span></p>
<p><strong>Recovery codes</strong>: each signs you in once instead of a code. Keep them somewhere safe: they are shown only now.</p>
<ul class="codes">${issued.recoveryCodes.map((c) => html`<li>${c}</li>`)}</ul>
${confirmForm(deps, request, reply, token)}`,
      )
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'password_too_weak' || error.code === 'invite_invalid')) {
        return error.code === 'invite_invalid'
          ? inviteInvalid(reply)
          : retry('The password needs at least 12 characters (at most 200).', error.code)
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
  },
})

const ConfirmForm = z.object({ csrf: CsrfField, code: z.string().describe('The 6 digits the authenticator app shows now') })

export const confirmInviteRoute = route<SignInPagesDeps, typeof InviteParams, z.ZodNever, typeof ConfirmForm>({
  method: 'POST',
  path: '/invite/:token/confirm',
  operationId: 'confirm_invite',
  summary: 'Accept an invite: confirm the authenticator',
  description: 'The first code from the authenticator finishes joining; then to /login?enrolled=1. A wrong code is the form again (400).',
  tag: 'sign-in',
  auth: 'public',
  params: InviteParams,
  body: { type: 'application/x-www-form-urlencoded', schema: ConfirmForm, required: true },
  responses: {
    303: redirectResponse('Joined: to /login?enrolled=1.'),
    400: pageResponse('The code does not match: the form again.'),
    403: pageResponse('The form expired or did not come from this site.'),
    404: INVALID,
    503: pageResponse('Account changes are paused for maintenance.'),
  },
  example: { params: { token: INVITE_TOKEN }, body: { csrf: CSRF_EXAMPLE, code: '492039' } },
  handler: async ({ request, reply, deps, input }) => {
    if (!(await checkCsrf(deps, request, reply))) return reply
    const { token } = input.params()
    const invite = await inviteOf(deps, token)
    if (!invite) return inviteInvalid(reply)
    try {
      const out = await confirmTotp(peopleCommandDeps(deps), commandContext(request, { kind: 'user', id: invite.user_id }), {
        userId: invite.user_id,
        token,
        code: field(formOf(request), 'code'),
      })
      await settle(deps, out.position)
      return reply.code(303).header('Location', '/login?enrolled=1').send()
    } catch (error) {
      if (error instanceof DomainError && error.code === 'totp_code_wrong') {
        return send(
          reply,
          400,
          'Set up your authenticator',
          html`${errorBox('The code does not match. Check the app shows this account, then type the code it shows now.', 'totp_code_wrong')}${confirmForm(deps, request, reply, token)}`,
        )
      }
      if (error instanceof DomainError && error.code === 'invite_invalid') return inviteInvalid(reply)
      throw error
    }
  },
})
