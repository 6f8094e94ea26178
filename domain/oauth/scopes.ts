import { DomainError } from '../shared/errors.js'
import type { Scope } from '../api-keys/scopes.js'

/**
 * The scopes an OAuth app may ask for (spec behaviour.md, Authentication 6): the three a key can hold, plus
 * offline_access, which grants a refresh token and nothing on the API itself.
 */
export const OAUTH_SCOPES = ['read', 'write', 'jobs', 'offline_access'] as const
export type OAuthScope = (typeof OAUTH_SCOPES)[number]

/** What each scope lets an app do, in the words the consent page uses. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<OAuthScope, string>> = {
  read: 'Read clients, keywords, rankings, action items, AI Visibility data and reports',
  write: 'Change data: add clients and questions, update items, enrol AI Visibility, register webhooks',
  jobs: 'Run background jobs: audits, strategist, content, exports',
  offline_access: 'Stay connected when you are away (a refresh token, for up to 30 days of inactivity)',
}

/**
 * Parses an OAuth `scope` parameter (RFC 6749 section 3.3: space-separated). Unknown scopes are refused
 * (invalid_scope); an absent or empty parameter is refused too (we have no default scope to fall back on).
 * Returns the scopes in canonical order, without duplicates.
 */
export function parseOAuthScope(text: string | undefined): OAuthScope[] {
  const parts = (text ?? '').split(' ').filter((s) => s.length > 0)
  if (parts.length === 0) throw new DomainError('invalid_scope', 'No scope requested', `ask for some of: ${OAUTH_SCOPES.join(' ')}`)
  const unknown = parts.filter((p) => !(OAUTH_SCOPES as readonly string[]).includes(p))
  if (unknown.length > 0)
    throw new DomainError('invalid_scope', 'Unknown scope', `unknown: ${unknown.join(' ')}; supported: ${OAUTH_SCOPES.join(' ')}`)
  return OAUTH_SCOPES.filter((s) => parts.includes(s))
}

export const formatOAuthScope = (scopes: readonly OAuthScope[]) => scopes.join(' ')

/** The API scopes a token carries (offline_access is about the grant, not about calls). */
export const apiScopesOf = (scopes: readonly OAuthScope[]): Scope[] => scopes.filter((s): s is Scope => s !== 'offline_access')

/** The organization roles (spec: owner, SEO editor, web builder, viewer), as read-api/people names them. */
export type MemberRole = 'owner' | 'seo_editor' | 'web_builder' | 'viewer'

/**
 * What a member may delegate to an app: never more than the member's own role may do. The spec fixes that
 * viewers cannot authorize at all; owners and SEO editors run the whole API for their organization (data,
 * changes and jobs); web builders build and edit sites (read and write) but do not run the agency's
 * background jobs (audits, strategist, content, exports).
 */
export const ROLE_SCOPE_CAP: Readonly<Record<MemberRole, readonly OAuthScope[]>> = {
  owner: ['read', 'write', 'jobs', 'offline_access'],
  seo_editor: ['read', 'write', 'jobs', 'offline_access'],
  web_builder: ['read', 'write', 'offline_access'],
  viewer: [],
}

export interface CappedScopes {
  /** What the grant will carry: the requested scopes the role allows. */
  readonly granted: OAuthScope[]
  /** Requested but beyond the role: left out (the consent page says so). */
  readonly withheld: OAuthScope[]
}

/**
 * Caps a request by the member's role. Throws access_denied when nothing usable remains: a viewer, or a
 * request whose only allowed scope is offline_access (a refresh token for no API access is no grant).
 */
export function capScopesByRole(requested: readonly OAuthScope[], role: MemberRole): CappedScopes {
  const cap = ROLE_SCOPE_CAP[role]
  const granted = requested.filter((s) => cap.includes(s))
  const withheld = requested.filter((s) => !cap.includes(s))
  if (apiScopesOf(granted).length === 0) {
    throw new DomainError(
      'access_denied',
      role === 'viewer' ? 'Viewers cannot authorize apps' : 'Your role allows none of the requested scopes',
      role === 'viewer' ? 'ask an owner of your organization to connect the app' : `requested: ${requested.join(' ')}`,
    )
  }
  return { granted, withheld }
}
