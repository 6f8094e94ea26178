import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CommandContext } from '../../commands/command-handler.js'
import type { Position } from '../../commands/event-store/port.js'
import type { SsoFailureReason } from '../../domain/sso/events.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import { ApiError } from '../errors.js'
import { requireWritesEnabled } from '../platform/writes-switch.js'
import { errorBox, html, sendPage } from '../people/html.js'

/**
 * What the OIDC and SAML sign-in routes answer a browser alike: the maintenance page, the unknown-link page,
 * and a refusal. A refusal shows one message for everything that concerns who the person is (so nothing
 * tells whether an account exists) and another for a link that expired, was used or belongs to another
 * browser; its reason is in the recorded event, never on the page.
 */
const IDENTITY_REFUSED =
  'Single sign-on did not let you in. If you should have access, ask an owner of your organization for an invite, or sign in with your password.'
const STATE_REFUSED = 'This sign-in link expired, was already used or was started in another browser. Start again from the sign-in page.'
const STATE_REASONS: readonly SsoFailureReason[] = [
  'state_unknown',
  'state_expired',
  'state_reused',
  'browser_mismatch',
  'in_response_to_unknown',
]

export interface SignInPages {
  /** Waits until the read models show `position` (so the next page sees the session). */
  settle(position: Position | null): Promise<void>
  /** The context of a step no credential vouches for yet. */
  context(request: FastifyRequest): CommandContext
  /** True (and the maintenance page sent) while writes are paused. */
  writesOff(request: FastifyRequest, reply: FastifyReply): Promise<boolean>
  unknownProvider(reply: FastifyReply): FastifyReply
  refused(reply: FastifyReply, request: FastifyRequest, reason: SsoFailureReason, position: Position | null): Promise<FastifyReply>
}

export function signInPages(deps: { readonly watermark: ProjectionWatermark; readonly readYourWritesTimeoutMs: number }): SignInPages {
  const settle = async (position: Position | null) => {
    if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
  }
  return {
    settle,
    context: (request) => ({ actor: { kind: 'system', id: 'sso' }, requestId: request.id, correlationId: request.id, causationId: null }),
    async writesOff(request, reply) {
      try {
        await requireWritesEnabled(request, reply)
        return false
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'writes_disabled')) throw error
        void sendPage(
          reply,
          503,
          'Paused for maintenance',
          html`${errorBox('Signing in is paused for maintenance. Try again in a minute.', 'writes_disabled')}`,
        )
        return true
      }
    },
    unknownProvider: (reply) =>
      sendPage(
        reply,
        404,
        'Single sign-on',
        html`${errorBox('This single sign-on link is unknown or no longer in use.', 'sso_provider_unknown')}<p><a href="/login">Sign in</a></p>`,
      ),
    async refused(reply, request, reason, position) {
      await settle(position)
      request.log.info({ reason }, 'sso sign-in refused')
      const stateProblem = STATE_REASONS.includes(reason)
      return sendPage(
        reply,
        stateProblem ? 400 : 403,
        'Single sign-on',
        html`${errorBox(stateProblem ? STATE_REFUSED : IDENTITY_REFUSED, stateProblem ? 'sso_state_invalid' : 'sso_sign_in_refused')}<p><a href="/login/sso">Start again</a> · <a href="/login">Sign in with a password</a></p>`,
      )
    },
  }
}
