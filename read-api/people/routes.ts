import type { WriteDeps } from '../../commands/command-handler.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { acceptForms } from '../platform/form-input.js'
import type { RouteGroup } from '../platform/route.js'
import type { SignInPagesDeps } from './form-steps.js'
import { acceptInviteRoute, confirmInviteRoute, invitePageRoute } from './invite-routes.js'
import { accountRoute, loginPageRoute, loginRoute, logoutRoute } from './login-routes.js'
import { passwordResetLinkRoute, passwordResetPageRoute, requestPasswordResetRoute, resetPasswordRoute } from './password-reset-routes.js'
import type { PeopleSettings } from './settings.js'

export interface PeopleRouteDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly settings: { readonly people?: PeopleSettings }
}

/** The pages' deps when sign-in is configured; undefined: the pages are documented but not served. */
export function signInPagesDepsOf(deps: PeopleRouteDeps): SignInPagesDeps | undefined {
  const people = deps.settings.people
  return people
    ? { read: deps.read, write: deps.write, watermark: deps.watermark, readYourWritesTimeoutMs: deps.readYourWritesTimeoutMs, people }
    : undefined
}

/**
 * The sign-in pages: GET/POST /login, GET/POST /invite/<token> (+ /confirm), GET/POST /password-reset (and
 * /password-reset/<token>), GET /account, POST /logout. Forms are application/x-www-form-urlencoded, parsed in
 * this scope only (the API itself takes JSON only); refused text in a field or the query is a 400. Every POST
 * checks the CSRF token first. Every change is a command (events); a page that changed something waits until
 * the read models show it before it redirects, so the next page sees it.
 */
export const peopleRouteGroup: RouteGroup<SignInPagesDeps> = {
  routes: [
    loginPageRoute,
    loginRoute,
    accountRoute,
    logoutRoute,
    invitePageRoute,
    acceptInviteRoute,
    confirmInviteRoute,
    passwordResetPageRoute,
    requestPasswordResetRoute,
    passwordResetLinkRoute,
    resetPasswordRoute,
  ],
  setup: (scope) => acceptForms(scope, { bodyLimit: 16 * 1024, repeated: 'first' }),
}
