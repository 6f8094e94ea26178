import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import type { ApiKeyEvent } from './events.js'
import { formatScopes, type Scope } from './scopes.js'

/** One key, one stream: `api_key-<id>`. */
export const apiKeyStream = (keyId: number) => `api_key-${keyId}`

export interface ApiKeyState {
  readonly exists: boolean
  readonly orgId: number | null
  readonly revoked: boolean
  /** The key's own rate limit per minute; null: the service default. */
  readonly rateLimitPerMinute: number | null
}

/** Who is asking: an org-scoped caller (orgId set) or a platform caller (orgId null), and its scopes. */
export interface KeyCreator {
  readonly orgId: number | null
  readonly scopes: readonly Scope[]
}

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey'
      key_id: number
      org_id: number | null
      name: string
      notes: string
      scopes: Scope[]
      key_hash: string
      key_hint: string
      created_by_user_id: number | null
      creator: KeyCreator
    }
  | { type: 'RevokeApiKey'; key_id: number; caller_org_id: number | null }
  | { type: 'SetApiKeyRateLimit'; key_id: number; per_minute: number | null }

export const apiKey: Aggregate<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  streamOf: apiKeyStream,
  orgOf: (state) => state.orgId,
  initialState: () => ({ exists: false, orgId: null, revoked: false, rateLimitPerMinute: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated':
        return { exists: true, orgId: event.data.org_id, revoked: false, rateLimitPerMinute: null }
      case 'ApiKeyRevoked':
        return { ...state, revoked: true }
      case 'ApiKeyRateLimitSet':
        return { ...state, rateLimitPerMinute: event.data.per_minute }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey': {
        if (state.exists) throw new DomainError('already_exists', 'API key already exists', `api_key ${command.key_id}`)
        if (command.scopes.length === 0)
          throw new DomainError('invalid_scopes', 'At least one scope is required', 'allowed: read, write, jobs')
        // An organization's key can only mint keys for its own organization, never platform keys.
        if (command.creator.orgId !== null && command.org_id !== command.creator.orgId) {
          throw new DomainError('forbidden', 'An organization key can only create keys for its own organization')
        }
        // No privilege escalation: a key cannot grant scopes it does not hold itself. The hint names what it
        // may grant, so the caller can retry with a subset instead of guessing.
        const excess = command.scopes.filter((s) => !command.creator.scopes.includes(s))
        if (excess.length > 0) {
          throw new DomainError(
            'forbidden',
            'A key cannot grant scopes it does not hold',
            `not held: ${excess.join(', ')}`,
            `This key may grant only the scopes it holds: ${formatScopes(command.creator.scopes)}. Ask for those or fewer, or use a key that holds the others`,
          )
        }
        const { type: _type, creator: _creator, ...data } = command
        return [{ type: 'ApiKeyCreated', data }]
      }
      case 'RevokeApiKey': {
        if (!state.exists || (command.caller_org_id !== null && state.orgId !== command.caller_org_id)) {
          throw new NotFoundError('api_key', command.key_id)
        }
        if (state.revoked) return []
        return [{ type: 'ApiKeyRevoked', data: { key_id: command.key_id } }]
      }
      case 'SetApiKeyRateLimit': {
        // Only platform keys reach this command (the RPC is platform-only): a limit an organization could
        // raise for itself would protect nothing.
        if (!state.exists) throw new NotFoundError('api_key', command.key_id)
        if (state.revoked) throw new DomainError('api_key_revoked', 'The API key is revoked', `api_key ${command.key_id}`)
        if (state.rateLimitPerMinute === command.per_minute) return []
        return [{ type: 'ApiKeyRateLimitSet', data: { key_id: command.key_id, per_minute: command.per_minute } }]
      }
    }
  },
}
