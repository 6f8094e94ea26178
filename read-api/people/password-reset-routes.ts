import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { requestPasswordReset, sha256, usePasswordReset } from '../../commands/people.js'
import { DomainError } from '../../domain/shared/errors.js'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { route } from '../platform/route.js'
import { checkCsrf, commandContext, csrfInput, field, formOf, passwordForm, send, settle, type SignInPagesDeps } from './form-steps.js'
import { errorBox, html, noticeBox } from './html.js'
import { CSRF_EXAMPLE, CsrfField, pageExample, pageResponse, redirectResponse } from './page-responses.js'

const requestForm = (deps: SignInPagesDeps, request: FastifyRequest, reply: FastifyReply) => html`
<form method="post" action="/password-reset">
${csrfInput(deps, request, reply)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<button type="submit">Send a reset link</button>
</form>`

export const passwordResetPageRoute = route<SignInPagesDeps>({
  method: 'GET',
  path: '/password-reset',
  operationId: 'password_reset_page',
  summary: 'Forgot your password: ask for a reset link',
  tag: 'sign-in',
  auth: 'public',
  responses: { 200: pageResponse('The form for the email.') },
  example: { response: { status: 200, body: pageExample('Reset your password', '<form method="post" action="/password-reset">…</form>') } },
  handler: async ({ request, reply, deps }) => send(reply, 200, 'Reset your password', requestForm(deps, request, reply)),
})

const ResetRequestForm = z.object({ csrf: CsrfField, email: z.string().describe("The member's email") })

export const requestPasswordResetRoute = route<SignInPagesDeps, z.ZodNever, z.ZodNever, typeof ResetRequestForm>({
  method: 'POST',
  path: '/password-reset',
  operationId: 'request_password_reset',
  summary: 'Ask for a password-reset link',
  description:
    'Records the request and hands the link (valid 30 minutes) to the configured delivery; the page says the same whether or not the email belongs to anyone. Without a delivery the operator issues links (`npm run ops -- reset-password`).',
  tag: 'sign-in',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: ResetRequestForm, required: true },
  responses: {
    200: pageResponse('The same notice for every email.'),
    403: pageResponse('The form expired or did not come from this site.'),
    503: pageResponse('Account changes are paused for maintenance.'),
  },
  example: { body: { csrf: CSRF_EXAMPLE, email: 'dana@acme.example' } },
  handler: async ({ request, reply, deps }) => {
    if (!(await checkCsrf(deps, request, reply))) return reply
    const issued = await requestPasswordReset(deps.write, commandContext(request, { kind: 'system', id: 'password-reset' }), {
      email: field(formOf(request), 'email'),
    })
    if (issued) {
      await settle(deps, issued.position)
      if (deps.people.deliverPasswordReset) {
        await deps.people.deliverPasswordReset({
          userId: issued.userId,
          email: issued.email,
          link: `${baseUrlOf(request, deps.people.baseUrl)}/password-reset/${issued.token}`,
          expiresAt: issued.expiresAt,
        })
      } else {
        request.log.warn(
          { user_id: issued.userId },
          'password reset requested, but no delivery is configured: the operator can issue a link with `npm run ops -- reset-password`',
        )
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
  },
})

/** An open reset by its link's token: unknown, used, invalidated and expired ones are all null. */
async function resetOf(deps: SignInPagesDeps, token: string) {
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
  send(
    reply,
    400,
    'Reset your password',
    html`${errorBox('This reset link is unknown, used or expired.', 'password_reset_invalid')}<p><a href="/password-reset">Ask for a new link</a></p>`,
  )

const ResetParams = z.object({ token: z.string().meta({ pattern: '^[A-Za-z0-9_-]{20,100}$' }).describe('The token of the reset link') })
const RESET_TOKEN = 'Hq3nV8xK1mP6rT9wZ2bD4fG7'
const INVALID = pageResponse('The reset link is unknown, used or expired.')

export const passwordResetLinkRoute = route<SignInPagesDeps, typeof ResetParams>({
  method: 'GET',
  path: '/password-reset/:token',
  operationId: 'password_reset_link_page',
  summary: 'A reset link: choose a new password',
  tag: 'sign-in',
  auth: 'public',
  params: ResetParams,
  responses: { 200: pageResponse('The form for the new password.'), 400: INVALID },
  example: { params: { token: RESET_TOKEN } },
  handler: async ({ request, reply, deps, input }) => {
    const { token } = input.params()
    const reset = await resetOf(deps, token)
    if (!reset) return resetInvalid(reply)
    return send(reply, 200, 'Choose a new password', passwordForm(deps, request, reply, `/password-reset/${token}`))
  },
})

const NewPasswordForm = z.object({
  csrf: CsrfField,
  password: z.string().describe('The new password: 12 to 200 characters'),
  confirm: z.string().describe('The same password again'),
})

export const resetPasswordRoute = route<SignInPagesDeps, typeof ResetParams, z.ZodNever, typeof NewPasswordForm>({
  method: 'POST',
  path: '/password-reset/:token',
  operationId: 'reset_password',
  summary: 'Set the new password (the reset link’s form)',
  description: 'Uses the link once, then to /login?reset=1. Passwords that differ or are too short are the form again (400).',
  tag: 'sign-in',
  auth: 'public',
  params: ResetParams,
  body: { type: 'application/x-www-form-urlencoded', schema: NewPasswordForm, required: true },
  responses: {
    303: redirectResponse('Changed: to /login?reset=1.'),
    400: pageResponse('The link is unknown, used or expired, or the passwords differ or are too short.'),
    403: pageResponse('The form expired or did not come from this site.'),
    503: pageResponse('Account changes are paused for maintenance.'),
  },
  example: {
    params: { token: RESET_TOKEN },
    body: { csrf: CSRF_EXAMPLE, password: 'correct horse battery staple', confirm: 'correct horse battery staple' },
  },
  handler: async ({ request, reply, deps, input }) => {
    if (!(await checkCsrf(deps, request, reply))) return reply
    const { token } = input.params()
    const reset = await resetOf(deps, token)
    if (!reset) return resetInvalid(reply)
    const form = formOf(request)
    const password = field(form, 'password')
    const retry = (message: string, code: string) =>
      send(reply, 400, 'Choose a new password', passwordForm(deps, request, reply, `/password-reset/${token}`, errorBox(message, code)))
    if (password !== field(form, 'confirm')) return retry('The two passwords differ.', 'password_mismatch')
    try {
      const out = await usePasswordReset(deps.write, commandContext(request, { kind: 'user', id: reset.user_id }), {
        userId: reset.user_id,
        token,
        password,
      })
      await settle(deps, out.position)
      return reply.code(303).header('Location', '/login?reset=1').send()
    } catch (error) {
      if (error instanceof DomainError && error.code === 'password_too_weak')
        return retry('The password needs at least 12 characters (at most 200).', error.code)
      if (error instanceof DomainError && error.code === 'password_reset_invalid') return resetInvalid(reply)
      throw error
    }
  },
})
