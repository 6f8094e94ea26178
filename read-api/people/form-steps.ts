import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import type { PeopleDeps } from '../../commands/people.js'
import type { Position } from '../../commands/event-store/port.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { ApiError } from '../errors.js'
import { requireWritesEnabled } from '../platform/writes-switch.js'
import { csrfToken, csrfValid, CSRF_FIELD } from './csrf.js'
import { errorBox, html, sendPage, type Raw } from './html.js'
import type { PeopleSettings } from './settings.js'

/** What the sign-in pages run on: the write and read sides, and sign-in's settings (present: the pages are served). */
export interface SignInPagesDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly people: PeopleSettings
}

export type Form = Record<string, string>

/** The steps every sign-in page takes alike (read-api/people/*-routes.ts). */
export const send = (reply: FastifyReply, status: number, title: string, body: Raw): FastifyReply => sendPage(reply, status, title, body)

/** A form field, '' when absent. */
export const field = (form: Form, name: string) => (typeof form[name] === 'string' ? form[name]! : '')

/** The posted form; a body that is not one (none, or another media type refused earlier) is no fields. */
export const formOf = (request: FastifyRequest): Form => (request.body && typeof request.body === 'object' ? (request.body as Form) : {})

/** Waits until the read models show `position`, so the next page sees what this one changed. */
export async function settle(deps: SignInPagesDeps, position: Position | null): Promise<void> {
  if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
}

export const commandContext = (request: FastifyRequest, actor: CommandContext['actor']): CommandContext => ({
  actor,
  requestId: request.id,
  correlationId: request.id,
  causationId: null,
})

export const csrfInput = (deps: SignInPagesDeps, request: FastifyRequest, reply: FastifyReply) =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(request, reply, deps.people)}">`

/**
 * Every POST: the CSRF check first (a refusal is a 403 page), then the operator's writes switch (every POST
 * here records events; while writes are off it is a 503 page with Retry-After). False: the page is sent.
 */
export async function checkCsrf(deps: SignInPagesDeps, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (!csrfValid(request, deps.people, formOf(request))) {
    void send(
      reply,
      403,
      'Form expired',
      html`${errorBox('The form expired or did not come from this site. Go back, reload the page and try again.', 'csrf_failed')}`,
    )
    return false
  }
  try {
    await requireWritesEnabled(request, reply)
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'writes_disabled')) throw error
    void send(
      reply,
      503,
      'Paused for maintenance',
      html`${errorBox('Signing in and account changes are paused for maintenance. Try again in a minute.', 'writes_disabled')}`,
    )
    return false
  }
  return true
}

/** A password and its repetition, as the invite and the reset link ask for them. */
export const passwordForm = (deps: SignInPagesDeps, request: FastifyRequest, reply: FastifyReply, action: string, message?: Raw) => html`
${message ?? ''}
<form method="post" action="${action}">
${csrfInput(deps, request, reply)}
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="200" required aria-describedby="pw-hint">
<p id="pw-hint" class="hint">At least 12 characters.</p>
<label for="confirm">Repeat the password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">Continue</button>
</form>`

/** The people commands' deps: the write side and the key that seals TOTP secrets. */
export const peopleCommandDeps = (deps: SignInPagesDeps): PeopleDeps => ({ ...deps.write, serviceKey: deps.people.serviceKey })
