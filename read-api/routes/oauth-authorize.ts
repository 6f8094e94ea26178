import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { approveOAuthGrant, loadOAuthClient } from '../../commands/oauth.js'
import type { OAuthClientState } from '../../domain/oauth/client.js'
import { redirectUriMatches } from '../../domain/oauth/redirect-uri.js'
import { capScopesByRole, parseOAuthScope, SCOPE_DESCRIPTIONS, type MemberRole, type OAuthScope } from '../../domain/oauth/scopes.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import type { ReadDb } from '../../projections/tables.js'
import { MCP_PATH } from '../mcp/protected-resource.js'
import { route } from '../platform/route.js'
import { single } from './oauth-errors.js'
import { html, sendPage, type Markup } from './oauth-pages.js'

/** The signed-in member, as read-api/people/session.ts reports one. */
export interface AuthorizingMember {
  readonly userId: number
  readonly orgId: number
  readonly role: MemberRole
  readonly email: string
}

/**
 * What the consent page needs from sign-in (read-api/people): who is signed in, and the CSRF token of a form
 * and its check. Absent: nobody can be signed in, and /oauth/authorize sends everyone to /login.
 */
export interface OAuthSignIn {
  signedInMember(request: FastifyRequest): Promise<AuthorizingMember | null>
  csrfField(request: FastifyRequest, reply: FastifyReply): { name: string; value: string }
  csrfValid(request: FastifyRequest, form: Record<string, unknown>): boolean
}

export interface OAuthAuthorizeDeps {
  readonly read: ReadDb
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
  readonly signIn: OAuthSignIn | undefined
  readonly issuerOf: (request: FastifyRequest) => string
}

/** A checked authorization request. */
interface AuthorizationRequest {
  readonly clientId: number
  readonly client: OAuthClientState
  readonly redirectUri: string
  readonly state: string | undefined
  readonly scopes: OAuthScope[]
  readonly codeChallenge: string
  readonly resource: string | null
}

/** Before a redirect URI is trusted, an error can only be shown; after, it is sent back to the app. */
type Checked =
  | { readonly kind: 'ok'; readonly request: AuthorizationRequest }
  | { readonly kind: 'page'; readonly title: string; readonly message: string }
  | {
      readonly kind: 'redirect'
      readonly redirectUri: string
      readonly state: string | undefined
      readonly error: string
      readonly description: string
    }

const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const
const CLIENT_ID = /^[1-9][0-9]{0,15}$/
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/**
 * The checks of RFC 6749 section 4.1.1 / 3.1.2.4, RFC 7636 and RFC 8707, in the order that decides where an
 * error goes: the client and its redirect URI first (errors shown as a page, never redirected to an
 * unverified URI), then everything else (redirected with error= and the state).
 */
async function checkAuthorizationRequest(deps: OAuthAuthorizeDeps, source: unknown, issuer: string): Promise<Checked> {
  const p: Partial<Record<(typeof PARAMS)[number], string>> = {}
  const repeated: string[] = []
  for (const name of PARAMS) {
    const value = single(source, name)
    if (typeof value === 'object') repeated.push(name)
    else if (value !== undefined) p[name] = value
  }
  const page = (title: string, message: string): Checked => ({ kind: 'page', title, message })
  if (repeated.includes('client_id') || repeated.includes('redirect_uri'))
    return page('Invalid request', 'client_id and redirect_uri must be given once.')
  if (!p.client_id || !CLIENT_ID.test(p.client_id))
    return page('Unknown app', 'The app did not identify itself with a registered client_id.')
  const clientId = Number(p.client_id)
  const client = await loadOAuthClient(deps.write, clientId)
  if (!client.exists) return page('Unknown app', 'The app did not identify itself with a registered client_id.')
  if (!p.redirect_uri) return page('Invalid request', 'The app sent no redirect_uri.')
  if (!redirectUriMatches(client.redirectUris, p.redirect_uri)) {
    return page('Invalid redirect URI', 'The app asked to send you to an address it did not register. Nothing was shared with it.')
  }
  const redirectUri = p.redirect_uri
  const state = p.state
  const fail = (error: string, description: string): Checked => ({ kind: 'redirect', redirectUri, state, error, description })
  if (repeated.length > 0) return fail('invalid_request', `repeated parameters: ${repeated.join(', ')}`)
  if (state !== undefined && state.length > 2000) return fail('invalid_request', 'state is longer than 2000 characters')
  if (p.response_type !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported')
  if (!p.code_challenge) return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256')
  if (p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)')
  if (!S256_CHALLENGE.test(p.code_challenge)) return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)')
  let scopes: OAuthScope[]
  try {
    scopes = parseOAuthScope(p.scope)
  } catch (error) {
    return fail(
      'invalid_scope',
      error instanceof DomainError ? `${error.message}${error.detail ? `: ${error.detail}` : ''}` : 'invalid scope',
    )
  }
  let resource: string | null = null
  if (p.resource !== undefined) {
    // RFC 8707: an absolute URI without a fragment, and one this authorization server issues tokens for.
    const known = [issuer, `${issuer}/`, `${issuer}/api/v1`, `${issuer}/api/v1/`, `${issuer}${MCP_PATH}`]
    if (!known.includes(p.resource)) return fail('invalid_target', `tokens are issued for ${issuer}${MCP_PATH} (or ${issuer}) only`)
    resource = p.resource
  }
  return { kind: 'ok', request: { clientId, client, redirectUri, state, scopes, codeChallenge: p.code_challenge, resource } }
}

/** The app's redirect URI with the response parameters added (its own query kept), and RFC 9207 `iss`. */
function redirectBack(redirectUri: string, params: Record<string, string | undefined>, issuer: string): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value)
  url.searchParams.append('iss', issuer)
  return url.href
}

const hostOf = (uri: string) => new URL(uri).host

/** A refused request: a page while the redirect URI is not trusted, else the error sent back to the app. */
function answer(reply: FastifyReply, checked: Exclude<Checked, { kind: 'ok' }>, issuer: string) {
  if (checked.kind === 'page') return sendPage(reply, 400, checked.title, html`<p class="error">${checked.message}</p>`)
  return reply
    .code(303)
    .header('Cache-Control', 'no-store')
    .header(
      'Location',
      redirectBack(checked.redirectUri, { error: checked.error, error_description: checked.description, state: checked.state }, issuer),
    )
    .send()
}

const toLogin = (reply: FastifyReply, returnTo: string) =>
  reply
    .code(303)
    .header('Cache-Control', 'no-store')
    .header('Location', `/login?return_to=${encodeURIComponent(returnTo)}`)
    .send()

const AuthorizeQuery = z.object({
  response_type: z.literal('code').describe('code (the only response type)'),
  client_id: z.string().describe('The client_id POST /oauth/register returned'),
  redirect_uri: z.string().describe('One of the redirect_uris the client registered, exactly'),
  scope: z.string().describe('Space-separated: read write jobs offline_access'),
  state: z.string().optional().describe('Opaque to the server, sent back with the code: bind it to the user agent against CSRF'),
  code_challenge: z.string().describe('PKCE: base64url(sha256(code_verifier)), 43 characters'),
  code_challenge_method: z.literal('S256').describe('S256 (the only method)'),
  resource: z.string().optional().describe('RFC 8707: the MCP server or API the token is for (this service)'),
})

const AUTHORIZE_EXAMPLE = {
  response_type: 'code',
  client_id: '41',
  redirect_uri: 'https://app.acme.example/callback',
  scope: 'read jobs offline_access',
  state: 'af0ifjsldkj',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
}

const HTML_PAGE = z.string().describe('An HTML page')

/**
 * GET /oauth/authorize shows the consent page (after sign-in); POST /oauth/authorize is its form: approve or
 * deny, CSRF-checked, every parameter checked again. Approval records the grant (capped by the member's role)
 * and its single-use code, then sends the browser back with `code`, `state` and `iss`. The parameters are
 * checked one by one (checkAuthorizationRequest), since an error is shown or sent back by how far it got.
 */
export const oauthAuthorizeRoute = route<OAuthAuthorizeDeps, z.ZodNever, typeof AuthorizeQuery>({
  method: 'GET',
  path: '/oauth/authorize',
  operationId: 'oauth_authorize',
  summary: 'Authorization endpoint (code + PKCE S256)',
  description:
    'A browser navigation: the consent page for a signed-in member (else a redirect to /login and back). An invalid client or redirect URI is a 400 page; any other refusal goes back to redirect_uri with error, state and iss.',
  tag: 'oauth',
  auth: 'public',
  query: AuthorizeQuery,
  responses: {
    200: { description: 'The consent page.', type: 'text/html', schema: HTML_PAGE },
    303: {
      description: 'To /login first, or back to redirect_uri with error, state and iss.',
      headers: { Location: 'Where the browser goes next' },
    },
  },
  example: { query: AUTHORIZE_EXAMPLE },
  handler: async ({ request, reply, deps }) => {
    const issuer = deps.issuerOf(request)
    const checked = await checkAuthorizationRequest(deps, request.query, issuer)
    if (checked.kind !== 'ok') return answer(reply, checked, issuer)
    const member = deps.signIn ? await deps.signIn.signedInMember(request) : null
    if (!member || !deps.signIn) return toLogin(reply, request.url)
    const { request: ask } = checked
    let capped: ReturnType<typeof capScopesByRole>
    try {
      capped = capScopesByRole(ask.scopes, member.role)
    } catch (error) {
      const message = error instanceof DomainError ? error.message : 'You cannot authorize this app'
      const back = redirectBack(ask.redirectUri, { error: 'access_denied', error_description: message, state: ask.state }, issuer)
      return sendPage(
        reply,
        403,
        'Cannot connect this app',
        html`<p class="error">${message}. ${member.role === 'viewer' ? 'Your role in the organization is Viewer; ask an owner to connect the app.' : ''}</p>
<p><a href="${back}">Return to ${ask.client.name}</a></p>`,
      )
    }
    const org = await deps.read.selectFrom('organizations').select('name').where('id', '=', member.orgId).executeTakeFirst()
    const csrf = deps.signIn.csrfField(request, reply)
    const hidden = (name: string, value: string | null | undefined) =>
      value === null || value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`
    const scopeItem = (s: OAuthScope) => html`<li><strong>${s}</strong>: ${SCOPE_DESCRIPTIONS[s]}</li>`
    const body: Markup = html`
<p><strong>${ask.client.name}</strong> wants to access <strong>${org?.name ?? `organization ${member.orgId}`}</strong> on RankRelay as you (${member.email}).</p>
<p class="warning">RankRelay has not reviewed this app. It will send you back to <code>${hostOf(ask.redirectUri)}</code>. Connect only apps you trust.</p>
<p>It will be able to:</p>
<ul class="scopes">${capped.granted.map(scopeItem)}</ul>
${capped.withheld.length > 0 ? html`<p class="hint">Also requested, but beyond your role and not granted: ${capped.withheld.join(', ')}.</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden(csrf.name, csrf.value)}
${hidden('response_type', 'code')}
${hidden('client_id', String(ask.clientId))}
${hidden('redirect_uri', ask.redirectUri)}
${hidden('scope', ask.scopes.join(' '))}
${hidden('state', ask.state)}
${hidden('code_challenge', ask.codeChallenge)}
${hidden('code_challenge_method', 'S256')}
${hidden('resource', ask.resource)}
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="hint">You can disconnect the app at any time under <a href="/account/apps">Connected apps</a>.</p>`
    return sendPage(reply, 200, `Connect ${ask.client.name}`, body)
  },
})

const ConsentForm = AuthorizeQuery.extend({
  decision: z.enum(['approve', 'deny']).describe('The button the member pressed'),
  csrf: z.string().describe('The CSRF token of the consent page'),
})

export const oauthConsentRoute = route<OAuthAuthorizeDeps, z.ZodNever, z.ZodNever, typeof ConsentForm>({
  method: 'POST',
  path: '/oauth/authorize',
  operationId: 'oauth_consent',
  summary: 'The consent form: approve or deny',
  description:
    'Posted by the consent page only (CSRF-checked; an expired form is a 403 page). Sends the browser back to redirect_uri with code (or error), state and iss.',
  tag: 'oauth',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: ConsentForm, required: true },
  responses: {
    303: {
      description: 'Back to redirect_uri with code or error, state and iss (or to /login).',
      headers: { Location: 'Where the browser goes next' },
    },
    403: { description: 'The form expired or did not come from this site (a page).', type: 'text/html', schema: HTML_PAGE },
  },
  example: { body: { ...AUTHORIZE_EXAMPLE, decision: 'approve', csrf: 'k2v0cXQ0Wm…' } },
  handler: async ({ request, reply, deps }) => {
    const issuer = deps.issuerOf(request)
    const form = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {}
    if (!deps.signIn?.csrfValid(request, form)) {
      return sendPage(
        reply,
        403,
        'Form expired',
        html`<p class="error">The form expired or did not come from this site. Go back to the app and start again.</p>`,
      )
    }
    const checked = await checkAuthorizationRequest(deps, form, issuer)
    if (checked.kind !== 'ok') return answer(reply, checked, issuer)
    const { request: ask } = checked
    const member = await deps.signIn.signedInMember(request)
    if (!member) {
      const query = new URLSearchParams()
      for (const name of PARAMS) if (typeof form[name] === 'string') query.set(name, form[name] as string)
      return toLogin(reply, `/oauth/authorize?${query}`)
    }
    const back = (params: Record<string, string | undefined>) =>
      reply
        .code(303)
        .header('Cache-Control', 'no-store')
        .header('Location', redirectBack(ask.redirectUri, params, issuer))
        .send()
    if (single(form, 'decision') !== 'approve')
      return back({ error: 'access_denied', error_description: 'the member denied the request', state: ask.state })
    let granted: OAuthScope[]
    try {
      granted = capScopesByRole(ask.scopes, member.role).granted
    } catch (error) {
      return back({
        error: 'access_denied',
        error_description: error instanceof DomainError ? error.message : 'not permitted',
        state: ask.state,
      })
    }
    const context: CommandContext = {
      actor: { kind: 'user', id: member.userId },
      requestId: request.id,
      correlationId: request.id,
      causationId: null,
    }
    const { code, position } = await approveOAuthGrant(deps.write, context, {
      orgId: member.orgId,
      userId: member.userId,
      clientId: ask.clientId,
      scopes: granted,
      resource: ask.resource,
      redirectUri: ask.redirectUri,
      codeChallenge: ask.codeChallenge,
    })
    // The Connected apps list shows the grant as soon as the app is back.
    if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
    return back({ code, state: ask.state })
  },
})
