import type { FastifyReply } from 'fastify'
import { z } from 'zod'

/**
 * The error answers of the OAuth endpoints, which follow their RFCs instead of the API's envelope:
 * RFC 6749 section 5.2 (token), RFC 7591 section 3.2.2 (registration), RFC 7009 (revocation).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'

/** The RFC error body, as the OpenAPI document shows it. */
export const OAuthErrorBody = z.object({
  error: z.string().describe('The RFC error code'),
  error_description: z.string().describe('What was wrong, for the developer'),
})

export function sendOAuthError(reply: FastifyReply, status: number, error: OAuthErrorCode, description: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send({ error, error_description: description })
}

/** A form or query value given once (RFC 6749 section 3.1/3.2: parameters must not repeat), else undefined or 'repeated'. */
export function single(source: unknown, name: string): string | undefined | { repeated: true } {
  if (!source || typeof source !== 'object') return undefined
  const value = (source as Record<string, unknown>)[name]
  if (value === undefined) return undefined
  if (Array.isArray(value)) return { repeated: true }
  return typeof value === 'string' ? value : undefined
}
