import type { FastifyRequest } from 'fastify'
import { publicBaseUrl } from '../platform/public-base-url.js'

/** Where the protected-resource metadata (RFC 9728) of the API and its MCP server is published. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/api/v1/mcp'

/**
 * The service's public address for a request's answer: BASE_URL, else the listen address; never the Host
 * header (read-api/platform/public-base-url.ts says why).
 */
export function baseUrlOf(request: FastifyRequest, configured: string | undefined): string {
  return publicBaseUrl(request.server, configured)
}

export interface Challenge {
  /** RFC 6750 error: invalid_token when a presented token was refused, insufficient_scope on a 403. */
  readonly error?: 'invalid_token' | 'insufficient_scope'
  /** The scope to (re-)consent for, with insufficient_scope. */
  readonly scope?: string
}

/**
 * The WWW-Authenticate value of a 401 (and of a 403 insufficient_scope): the Bearer scheme (RFC 6750) with
 * `resource_metadata` (RFC 9728 section 5.1), so that an MCP client or OAuth app that knows nothing about us
 * finds the authorization server from the refusal alone (spec behaviour.md, Authentication 6).
 */
export function bearerChallenge(baseUrl: string, challenge: Challenge = {}): string {
  const params = [`realm="RankRelay"`, `resource_metadata="${baseUrl}${PROTECTED_RESOURCE_METADATA_PATH}"`]
  if (challenge.error) params.push(`error="${challenge.error}"`)
  if (challenge.scope) params.push(`scope="${challenge.scope}"`)
  return `Bearer ${params.join(', ')}`
}
