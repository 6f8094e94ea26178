import type { Scope } from '../domain/api-keys/scopes.js'
import type { Role } from '../domain/people/roles.js'
import type { Actor } from '../domain/shared/event.js'
import { ApiError } from './errors.js'

/** The authenticated principal of a request. */
export interface Caller {
  readonly actor: Actor
  /** Set: an organization's key, confined to it. Null: a partner/platform key (cross-organization). */
  readonly orgId: number | null
  readonly scopes: readonly Scope[]
  /** The published public sandbox key: reads only, and writes answer sandbox_read_only (read-api/platform/sandbox.ts). */
  readonly sandbox: boolean
  /** The key's own requests-per-minute limit; null or absent: the service default. */
  readonly rateLimitPerMinute?: number | null
  /**
   * Set when the credential acts for a signed-in member (an OAuth token, later): member-management RPCs then
   * apply the member's role (only owners manage members). Absent for API keys, which act at owner level when
   * they hold the write scope.
   */
  readonly member?: { readonly userId: number; readonly role: Role }
}

/**
 * A 403 insufficient_scope that remembers the scope, so the error handler can name it in the WWW-Authenticate
 * challenge (RFC 6750 `scope=`): an OAuth or MCP client then knows what to re-consent for.
 */
export class InsufficientScopeError extends ApiError {
  readonly scope: Scope

  constructor(scope: Scope, detail: string, hint: string) {
    super('insufficient_scope', detail, hint)
    this.scope = scope
  }
}

export function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.includes(scope)) {
    // An OAuth token's holder fixes it by authorizing again with the scope (the WWW-Authenticate challenge
    // names it), not by switching keys.
    const token = caller.actor.kind === 'oauth'
    const credential = token ? 'token' : 'key'
    throw new InsufficientScopeError(
      scope,
      `this call needs the ${scope} scope; the ${credential} has ${caller.scopes.join(',') || 'none'}`,
      token
        ? `Authorize the app again with the ${scope} scope (this token was granted ${caller.scopes.join(', ') || 'no scope'})`
        : scope === 'write'
          ? 'This key is read-only: use a key with the write scope for write methods'
          : `Use a key with the ${scope} scope`,
    )
  }
}

/**
 * For the operations the spec reserves to owners (Authentication 9: register_webhook, export_org): a credential
 * acting for a member (an OAuth token) must act for an owner. API keys carry scopes, not roles, and act at owner
 * level with the needed scope, as everywhere else.
 */
export function requireOwnerLevel(caller: Caller, what: string): void {
  if (caller.member && caller.member.role !== 'owner') {
    throw new ApiError('forbidden', `only an owner may ${what}; this token acts for a ${caller.member.role}`)
  }
}

/**
 * The organization a call is about. An organization key's own id is injected and any other org_id answers
 * like a missing record (no existence leak); a platform key passes org_id explicitly, or null if it did not.
 */
export function resolveOrg(caller: Caller, requested: number | undefined): number | null {
  if (caller.orgId === null) return requested ?? null
  if (requested !== undefined && requested !== caller.orgId) throw new ApiError('not_found', `organization ${requested} not found`)
  return caller.orgId
}

/** For methods about one organization's records: a platform key must name the organization. */
export function requireOrgId(orgId: number | null): number {
  if (orgId === null) throw new ApiError('org_id_required')
  return orgId
}
