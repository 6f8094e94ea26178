import { DomainError } from '../shared/errors.js'

/** What a key may do: read RPCs, write RPCs, and background jobs. */
export const SCOPES = ['read', 'write', 'jobs'] as const
export type Scope = (typeof SCOPES)[number]

export const DEFAULT_SCOPES = 'read,write,jobs'

/** Parses the comma-separated form the API uses; unknown or empty scopes are refused. */
export function parseScopes(text: string): Scope[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
  if (parts.length === 0) throw new DomainError('invalid_scopes', 'At least one scope is required', `allowed: ${SCOPES.join(', ')}`)
  const unknown = parts.filter((p) => !(SCOPES as readonly string[]).includes(p))
  if (unknown.length > 0) {
    throw new DomainError('invalid_scopes', 'Unknown scope', `unknown: ${unknown.join(', ')}; allowed: ${SCOPES.join(', ')}`)
  }
  // Canonical order, no duplicates: the stored form is stable whatever the caller typed.
  return SCOPES.filter((s) => parts.includes(s))
}

export const formatScopes = (scopes: readonly Scope[]) => scopes.join(',')
