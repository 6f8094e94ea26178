import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import type { Position } from '../../commands/event-store/port.js'
import { exchangeOAuthCode, loadOAuthClient, refreshOAuthTokens, revokeOAuthToken, type TokenOutcome } from '../../commands/oauth.js'
import { formatOAuthScope } from '../../domain/oauth/scopes.js'
import type { ProjectionWatermark } from '../../projections/watermark.js'
import { route } from '../platform/route.js'
import { OAuthErrorBody, sendOAuthError, single } from './oauth-errors.js'

export interface OAuthTokenDeps {
  readonly write: WriteDeps
  readonly watermark: ProjectionWatermark
  readonly readYourWritesTimeoutMs: number
}

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/
/** Our client ids: the decimal id the registration returned. */
const CLIENT_ID = /^[1-9][0-9]{0,15}$/

const isForm = (request: FastifyRequest) => /^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')

const context = (request: FastifyRequest): CommandContext => ({
  actor: { kind: 'oauth', id: null },
  requestId: request.id,
  correlationId: request.id,
  causationId: null,
})

const TokenForm = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']).describe('authorization_code to exchange a code, refresh_token to rotate'),
  client_id: z.string().describe('The client_id the registration returned'),
  code: z.string().optional().describe('authorization_code: the code the redirect carried'),
  code_verifier: z.string().optional().describe('authorization_code: the PKCE verifier, 43 to 128 characters of [A-Za-z0-9._~-]'),
  redirect_uri: z.string().optional().describe('authorization_code: the redirect_uri of the authorization request'),
  refresh_token: z.string().optional().describe('refresh_token: the refresh token (it rotates: use the new one next time)'),
})

const Tokens = z.object({
  access_token: z.string().describe('An rro_ bearer token'),
  token_type: z.literal('Bearer').describe('Always Bearer'),
  expires_in: z.number().int().describe('Seconds the access token lives'),
  refresh_token: z.string().optional().describe('With offline_access: the next refresh token'),
  scope: z.string().describe('The granted scopes, space-separated'),
})

/**
 * POST /oauth/token (RFC 6749 section 4.1.3 and 6, RFC 7636) and POST /oauth/revoke (RFC 7009). Form-encoded
 * bodies only. Errors are RFC 6749 JSON (`error`, `error_description`); every answer carries
 * `Cache-Control: no-store`. An answer waits until the read models show what it wrote, so a fresh access
 * token works on the next request and a revoked one (also by a replayed code or refresh token) is dead.
 */
export const oauthTokenRoute = route<OAuthTokenDeps, z.ZodNever, z.ZodNever, typeof TokenForm>({
  method: 'POST',
  path: '/oauth/token',
  operationId: 'oauth_token',
  summary: 'Token endpoint (code exchange, refresh)',
  description: 'Form-encoded. Clients are public: client_id alone, no Authorization header. Every answer carries Cache-Control: no-store.',
  tag: 'oauth',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: TokenForm, required: true },
  responses: {
    200: { description: 'Tokens.', schema: Tokens },
    400: {
      description:
        'RFC 6749 `{error, error_description}`: invalid_request for a missing or repeated field, or one holding U+0000 or an unpaired surrogate; invalid_grant; unsupported_grant_type.',
      schema: OAuthErrorBody,
    },
  },
  example: {
    body: {
      grant_type: 'authorization_code',
      client_id: '41',
      code: 'rrc_5dQm8kWb0yZ1',
      redirect_uri: 'https://app.acme.example/callback',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    },
    response: {
      status: 200,
      body: {
        access_token: 'rro_Xq4v9Lk2…',
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: 'rrr_8Hn3Tz5p…',
        scope: 'read jobs offline_access',
      },
    },
  },
  // The form is read field by field (a repeated field is refused) and answered in RFC 6749's words.
  handler: async ({ request, reply, deps }) => {
    const settle = async (position: Position | null) => {
      if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
    }
    if (!isForm(request))
      return sendOAuthError(reply, 400, 'invalid_request', 'the token request must be application/x-www-form-urlencoded')
    const body = request.body
    const names = ['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'scope', 'resource'] as const
    const form: Partial<Record<(typeof names)[number], string>> = {}
    for (const name of names) {
      const value = single(body, name)
      if (typeof value === 'object') return sendOAuthError(reply, 400, 'invalid_request', `${name} is repeated`)
      if (value !== undefined) form[name] = value
    }
    if (!form.grant_type) return sendOAuthError(reply, 400, 'invalid_request', 'grant_type is required')
    if (form.grant_type !== 'authorization_code' && form.grant_type !== 'refresh_token') {
      return sendOAuthError(reply, 400, 'unsupported_grant_type', 'only authorization_code and refresh_token are supported')
    }
    if (request.headers.authorization)
      return sendOAuthError(
        reply,
        401,
        'invalid_client',
        'clients are public: authenticate with client_id alone (token_endpoint_auth_method none)',
      )
    if (!form.client_id) return sendOAuthError(reply, 400, 'invalid_request', 'client_id is required')
    const clientId = CLIENT_ID.test(form.client_id) ? Number(form.client_id) : null
    if (clientId === null || !(await loadOAuthClient(deps.write, clientId)).exists)
      return sendOAuthError(reply, 401, 'invalid_client', 'unknown client_id')

    let outcome: TokenOutcome
    if (form.grant_type === 'authorization_code') {
      for (const name of ['code', 'redirect_uri', 'code_verifier'] as const)
        if (!form[name]) return sendOAuthError(reply, 400, 'invalid_request', `${name} is required`)
      if (!CODE_VERIFIER.test(form.code_verifier!))
        return sendOAuthError(reply, 400, 'invalid_request', 'code_verifier must be 43 to 128 characters of [A-Za-z0-9._~-] (RFC 7636)')
      outcome = await exchangeOAuthCode(deps.write, context(request), {
        code: form.code!,
        clientId,
        redirectUri: form.redirect_uri!,
        codeVerifier: form.code_verifier!,
      })
    } else {
      if (!form.refresh_token) return sendOAuthError(reply, 400, 'invalid_request', 'refresh_token is required')
      outcome = await refreshOAuthTokens(deps.write, context(request), { refreshToken: form.refresh_token, clientId })
    }
    await settle(outcome.position)
    if (!outcome.ok) return sendOAuthError(reply, 400, outcome.error, outcome.detail)
    const { tokens } = outcome
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').type('application/json; charset=utf-8')
    return {
      access_token: tokens.accessToken,
      token_type: 'Bearer',
      expires_in: tokens.expiresIn,
      ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
      scope: formatOAuthScope(tokens.scopes),
    }
  },
})

const RevokeForm = z.object({ token: z.string().describe('An access or refresh token; revoking either ends its whole grant') })

// RFC 7009: 200 for a revoked token and for one we do not know alike (no oracle); revoking an access or
// refresh token ends its whole grant.
export const oauthRevokeRoute = route<OAuthTokenDeps, z.ZodNever, z.ZodNever, typeof RevokeForm>({
  method: 'POST',
  path: '/oauth/revoke',
  operationId: 'oauth_revoke',
  summary: 'Revoke a token',
  tag: 'oauth',
  auth: 'public',
  body: { type: 'application/x-www-form-urlencoded', schema: RevokeForm, required: true },
  responses: {
    200: { description: 'Revoked (also for an unknown token).' },
    400: {
      description: 'RFC 6749 `{error, error_description}`: invalid_request when token is missing or repeated.',
      schema: OAuthErrorBody,
    },
  },
  example: { body: { token: 'rrr_8Hn3Tz5p…' }, response: { status: 200 } },
  handler: async ({ request, reply, deps }) => {
    const settle = async (position: Position | null) => {
      if (position !== null) await deps.watermark.waitFor(position, deps.readYourWritesTimeoutMs)
    }
    if (!isForm(request))
      return sendOAuthError(reply, 400, 'invalid_request', 'the revocation request must be application/x-www-form-urlencoded')
    const token = single(request.body, 'token')
    if (typeof token !== 'string' || token.length === 0) return sendOAuthError(reply, 400, 'invalid_request', 'token is required (once)')
    const { position } = await revokeOAuthToken(deps.write, context(request), token)
    await settle(position)
    return reply.code(200).header('Cache-Control', 'no-store').send()
  },
})
