import { z } from 'zod'
import type { WriteDeps } from '../../commands/command-handler.js'
import { registerOAuthClient } from '../../commands/oauth.js'
import type { ClientMetadata } from '../../domain/oauth/client.js'
import { DomainError } from '../../domain/shared/errors.js'
import { route } from '../platform/route.js'
import { OAuthErrorBody, sendOAuthError } from './oauth-errors.js'

export interface OAuthRegisterDeps {
  readonly write: WriteDeps
}

type Json = Record<string, unknown>

const text = (body: Json, name: string): string | null => (typeof body[name] === 'string' ? (body[name] as string) : null)

const ClientMetadataBody = z.object({
  client_name: z
    .string()
    .optional()
    .describe(
      'Shown on the consent page: 1 to 200 characters, no control or bidirectional formatting characters (invalid_client_metadata).',
    ),
  redirect_uris: z
    .array(z.string())
    .describe(
      'https, or http on a loopback host; written exactly as URL parsing gives it back (no surrounding whitespace, control characters, backslashes, dot segments or fragment), else invalid_redirect_uri.',
    ),
  token_endpoint_auth_method: z.literal('none').optional().describe('none (the default): public clients only'),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .optional()
    .describe('Default [authorization_code]'),
  response_types: z.array(z.literal('code')).optional().describe('Default [code]'),
  client_uri: z.string().optional().describe("The app's home page"),
  logo_uri: z.string().optional().describe("The app's logo"),
  software_id: z.string().optional().describe("The app's own identifier"),
  software_version: z.string().optional().describe("The app's version"),
})

const RegisteredClient = ClientMetadataBody.extend({
  client_id: z.string().describe('The client id to authorize with'),
  client_id_issued_at: z.number().int().describe('Unix seconds'),
  client_name: z.string().describe('The name the consent page shows'),
})

/**
 * POST /oauth/register: RFC 7591 dynamic registration of public clients. JSON in, JSON out (201 with the
 * client's metadata and its `client_id`); refusals are RFC 7591 errors: invalid_redirect_uri for a redirect
 * URI that is not https or http on loopback, or not in its one canonical form (domain/oauth/redirect-uri.ts),
 * invalid_client_metadata for anything else we do not do (a client secret, other grant or response types,
 * another auth method, a client_name with control or bidi characters).
 */
export const oauthRegisterRoute = route<OAuthRegisterDeps, z.ZodNever, z.ZodNever, typeof ClientMetadataBody>({
  method: 'POST',
  path: '/oauth/register',
  operationId: 'oauth_register',
  summary: 'Dynamic client registration (RFC 7591)',
  description: 'Public clients only (PKCE, no secret). The answer is the registered metadata with its client_id.',
  tag: 'oauth',
  auth: 'public',
  body: { type: 'application/json', schema: ClientMetadataBody, required: true },
  responses: {
    201: { description: 'The registered client.', schema: RegisteredClient },
    400: {
      description:
        'RFC 7591 `{error, error_description}`: invalid_redirect_uri, or invalid_client_metadata (also for malformed JSON, U+0000 or an unpaired surrogate).',
      schema: OAuthErrorBody,
    },
  },
  example: {
    body: { client_name: 'Acme Reporting', redirect_uris: ['https://app.acme.example/callback'] },
    response: {
      status: 201,
      body: {
        client_id: '41',
        client_id_issued_at: 1772442900,
        client_name: 'Acme Reporting',
        redirect_uris: ['https://app.acme.example/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    },
  },
  // The body is checked field by field below, each refusal in RFC 7591's words.
  handler: async ({ request, reply, deps }) => {
    const body = request.body
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return sendOAuthError(reply, 400, 'invalid_client_metadata', 'send the client metadata as a JSON object')
    const json = body as Json
    const uris = json.redirect_uris
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string')) {
      return sendOAuthError(reply, 400, 'invalid_redirect_uri', 'redirect_uris must be a non-empty array of strings')
    }
    const method = json.token_endpoint_auth_method ?? 'none'
    if (method !== 'none')
      return sendOAuthError(
        reply,
        400,
        'invalid_client_metadata',
        'only public clients: token_endpoint_auth_method must be none (use PKCE)',
      )
    const grantTypes = json.grant_types ?? ['authorization_code']
    if (!Array.isArray(grantTypes) || !grantTypes.every((g) => g === 'authorization_code' || g === 'refresh_token')) {
      return sendOAuthError(reply, 400, 'invalid_client_metadata', 'grant_types may only be authorization_code and refresh_token')
    }
    const responseTypes = json.response_types ?? ['code']
    if (!Array.isArray(responseTypes) || !responseTypes.every((r) => r === 'code'))
      return sendOAuthError(reply, 400, 'invalid_client_metadata', 'response_types may only be code')
    if (json.client_name !== undefined && typeof json.client_name !== 'string')
      return sendOAuthError(reply, 400, 'invalid_client_metadata', 'client_name must be a string')
    for (const name of ['client_uri', 'logo_uri', 'software_id', 'software_version'] as const) {
      if (json[name] !== undefined && typeof json[name] !== 'string')
        return sendOAuthError(reply, 400, 'invalid_client_metadata', `${name} must be a string`)
    }
    const metadata: ClientMetadata = {
      // RFC 7591 makes the name optional; the consent page must name the app, so it says what it registered as.
      client_name: text(json, 'client_name') ?? 'Unnamed app',
      redirect_uris: uris as string[],
      client_uri: text(json, 'client_uri'),
      logo_uri: text(json, 'logo_uri'),
      software_id: text(json, 'software_id'),
      software_version: text(json, 'software_version'),
    }
    try {
      const { clientId } = await registerOAuthClient(
        deps.write,
        { actor: { kind: 'system', id: 'oauth_register' }, requestId: request.id, correlationId: request.id, causationId: null },
        metadata,
      )
      reply.code(201).header('Cache-Control', 'no-store').type('application/json; charset=utf-8')
      return {
        client_id: String(clientId),
        client_id_issued_at: Math.floor(deps.write.clock().getTime() / 1000),
        client_name: metadata.client_name.trim(),
        redirect_uris: metadata.redirect_uris,
        token_endpoint_auth_method: 'none',
        grant_types: grantTypes,
        response_types: ['code'],
        ...(metadata.client_uri ? { client_uri: metadata.client_uri } : {}),
        ...(metadata.logo_uri ? { logo_uri: metadata.logo_uri } : {}),
        ...(metadata.software_id ? { software_id: metadata.software_id } : {}),
        ...(metadata.software_version ? { software_version: metadata.software_version } : {}),
      }
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'invalid_redirect_uri' || error.code === 'invalid_client_metadata')) {
        return sendOAuthError(reply, 400, error.code, error.detail ?? error.message)
      }
      throw error
    }
  },
})
