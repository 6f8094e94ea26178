import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.js'
import { sendOAuthError } from './oauth-errors.js'

/** The input refusals that happen before an OAuth endpoint's handler runs (a body parser, platform/form-input.ts). */
const INPUT_CODES: ReadonlySet<string> = new Set(['validation_failed', 'invalid_json'])

/**
 * The OAuth scope's error handler. A body or query refused by the input rules (malformed JSON, a NUL, an
 * unpaired surrogate) is refused before the endpoint runs, so it would be answered in the API's envelope,
 * which an OAuth client does not read: on /oauth/* it becomes the endpoint's RFC error instead, RFC 7591's
 * invalid_client_metadata for registration and RFC 6749's invalid_request elsewhere, the detail as its
 * description. Anything else goes on to the app's error handler (rethrown, as fastify passes it to the parent).
 */
export function answerOAuthInputError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!(error instanceof ApiError) || !INPUT_CODES.has(error.code) || !request.url.startsWith('/oauth/')) throw error
  const description = error.detail ?? error.message
  return sendOAuthError(
    reply,
    400,
    request.routeOptions.url === '/oauth/register' ? 'invalid_client_metadata' : 'invalid_request',
    description,
  )
}
