import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import type { WriteDeps } from '../../commands/command-handler.js'
import { revokeOAuthGrant } from '../../commands/oauth.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { CSRF_EXAMPLE, CsrfField, pageExample, pageResponse, redirectResponse } from '../people/page-responses.js'
import { route } from '../platform/route.js'
import type { OAuthSignIn } from './oauth-authorize.js'
import { html, sendPage } from './oauth-pages.js'

export interface ConnectedAppsDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly signIn: OAuthSignIn | undefined
}

export const CONNECTED_APPS_PATH = '/account/apps'

const day = (value: Date | null) => (value === null ? 'never' : `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`)

const toLogin = (reply: FastifyReply) =>
  reply
    .code(303)
    .header('Location', `/login?return_to=${encodeURIComponent(CONNECTED_APPS_PATH)}`)
    .send()

const AppsQuery = z.object({ disconnected: z.string().optional().describe('Set by a Disconnect: the page says the app is disconnected') })

/**
 * "Connected apps" for signed-in members: the apps that hold an active grant, with their scopes and when
 * they last got tokens, and a Disconnect button each (a CSRF-checked POST that revokes the grant and every
 * token it issued). Owners see and disconnect every member's apps in the organization; everyone else their own.
 */
export const connectedAppsRoute = route<ConnectedAppsDeps, z.ZodNever, typeof AppsQuery>({
  method: 'GET',
  path: CONNECTED_APPS_PATH,
  operationId: 'connected_apps_page',
  summary: 'Connected apps (a page for signed-in members)',
  description:
    "The OAuth apps that hold an active grant, their scopes and last use, each with a Disconnect button. Owners see every member's apps in the organization, others their own; without a session, a redirect to /login and back.",
  tag: 'oauth',
  auth: 'public',
  query: AppsQuery,
  responses: {
    200: pageResponse('The Connected apps page.'),
    303: redirectResponse('To /login first, when nobody is signed in.'),
  },
  example: {
    query: { disconnected: '1' },
    response: { status: 200, body: pageExample('Connected apps', '<ul class="scopes"><li><strong>SEO Tool</strong> …</li></ul>') },
  },
  handler: async ({ request, reply, deps }) => {
    const member = deps.signIn ? await deps.signIn.signedInMember(request) : null
    if (!member || !deps.signIn) return toLogin(reply)
    const owner = member.role === 'owner'
    let query = deps.read
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
      .leftJoin('org_members as m', 'm.user_id', 'g.user_id')
      .select(['g.id', 'g.user_id', 'g.scopes', 'g.created_at', 'g.last_issued_at', 'c.client_name', 'c.redirect_uris', 'm.email'])
      .where('g.org_id', '=', member.orgId)
      .where('g.revoked_at', 'is', null)
      .where('g.expires_at', '>', deps.write.clock())
      .orderBy('g.id')
    if (!owner) query = query.where('g.user_id', '=', member.userId)
    const grants = await query.execute()
    const csrf = deps.signIn.csrfField(request, reply)
    const rows = grants.map(
      (g) => html`<li>
<strong>${g.client_name}</strong> <span class="hint">(${new URL(g.redirect_uris[0]!).host})</span><br>
Scopes: ${g.scopes}${owner ? html`<br>Connected by: ${g.email ?? `member ${g.user_id}`}` : ''}<br>
<span class="hint">Connected ${day(g.created_at)}; last used ${day(g.last_issued_at)}</span>
<form method="post" action="${CONNECTED_APPS_PATH}/${g.id}/disconnect">
<input type="hidden" name="${csrf.name}" value="${csrf.value}">
<button type="submit">Disconnect</button>
</form>
</li>`,
    )
    const notice = (request.query as Record<string, unknown>).disconnected
      ? html`<p class="warning">The app is disconnected: its tokens no longer work.</p>`
      : ''
    return sendPage(
      reply,
      200,
      'Connected apps',
      html`${notice}
<p>${owner ? 'Apps connected to your organization by any member.' : 'Apps you connected to your organization.'} An app keeps its access until it is disconnected, or until it goes unused for 30 days (an hour without offline access).</p>
${grants.length === 0 ? html`<p>No connected apps.</p>` : html`<ul class="scopes">${rows}</ul>`}
<p><a href="/account">Back to your account</a></p>`,
    )
  },
})

const GrantParams = z.object({
  grantId: z.string().meta({ type: 'integer', minimum: 1 }).describe('The grant the Disconnect button belongs to'),
})
const DisconnectForm = z.object({ csrf: CsrfField })

export const disconnectAppRoute = route<ConnectedAppsDeps, typeof GrantParams, z.ZodNever, typeof DisconnectForm>({
  method: 'POST',
  path: `${CONNECTED_APPS_PATH}/:grantId/disconnect`,
  operationId: 'disconnect_app',
  summary: 'Disconnect an app (the Connected apps form)',
  description:
    "Revokes the grant and every token it issued, then back to the Connected apps page. CSRF-checked (an expired form is a 403 page); a grant that is not the member's (or, for an owner, not the organization's) is a 404 page.",
  tag: 'oauth',
  auth: 'public',
  params: GrantParams,
  body: { type: 'application/x-www-form-urlencoded', schema: DisconnectForm, required: true },
  responses: {
    303: redirectResponse('Back to the Connected apps page (?disconnected=1), or to /login when nobody is signed in.'),
    403: pageResponse('The form expired or did not come from this site.'),
    404: pageResponse('No such connected app.'),
  },
  example: { params: { grantId: 41 }, body: { csrf: CSRF_EXAMPLE } },
  handler: async ({ request, reply, deps, input }) => {
    const form = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {}
    if (!deps.signIn?.csrfValid(request, form)) {
      return sendPage(
        reply,
        403,
        'Form expired',
        html`<p class="error">The form expired or did not come from this site. Go back, reload the page and try again.</p>`,
      )
    }
    const member = await deps.signIn.signedInMember(request)
    if (!member) return toLogin(reply)
    const raw = input.params().grantId
    const grantId = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : null
    try {
      if (grantId === null) throw new DomainError('not_found', 'Not found')
      const { position } = await revokeOAuthGrant(
        deps.write,
        { actor: { kind: 'user', id: member.userId }, requestId: request.id, correlationId: request.id, causationId: null },
        { grantId, revoker: { orgId: member.orgId, userId: member.role === 'owner' ? null : member.userId } },
      )
      if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found')
        return sendPage(reply, 404, 'Not found', html`<p class="error">No such connected app.</p>`)
      throw error
    }
    return reply.code(303).header('Location', `${CONNECTED_APPS_PATH}?disconnected=1`).send()
  },
})

/** The Connected apps page and its form, served in the OAuth scope (read-api/routes/oauth.ts). */
export const connectedAppsRoutes = [connectedAppsRoute, disconnectAppRoute] as const
