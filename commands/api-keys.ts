import { createHash, randomBytes } from 'node:crypto'
import { apiKey, type KeyCreator } from '../domain/api-keys/api-key.js'
import type { Scope } from '../domain/api-keys/scopes.js'
import { handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'
import { assertOrganizationExists } from './organizations.js'

export const API_KEY_PREFIX = 'rrk_'
/** rrk_ followed by 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^rrk_[A-Za-z0-9_-]{20,200}$/

/** Only this digest is ever stored or logged; the plaintext is shown once. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export function mintApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url')
}

/** Enough of the key for a person to tell keys apart, never enough to use it. */
export const keyHint = (key: string) => key.slice(0, 10)

export interface CreateApiKeyInput {
  readonly name: string
  readonly notes: string
  readonly scopes: Scope[]
  readonly orgId: number | null
  readonly createdByUserId: number | null
  readonly creator: KeyCreator
  /** An operator-supplied key (PLATFORM_KEY); otherwise a fresh one is minted. */
  readonly plaintext?: string
  /** An id allocated beforehand (the bootstrap claims it before the key exists). */
  readonly keyId?: number
}

export interface CreatedApiKey {
  readonly id: number
  readonly key: string
  readonly name: string
  readonly scopes: string
  readonly org_id: number | null
  readonly position: Position | null
}

export async function createApiKey(deps: WriteDeps, context: CommandContext, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  if (input.orgId !== null) await assertOrganizationExists(deps, input.orgId)
  const key = input.plaintext ?? mintApiKey()
  const keyId = input.keyId ?? (await deps.ids.next('api_key'))
  const outcome = await handleCommand(deps, {
    aggregate: apiKey,
    id: keyId,
    command: {
      type: 'CreateApiKey',
      key_id: keyId,
      org_id: input.orgId,
      name: input.name,
      notes: input.notes,
      scopes: input.scopes,
      key_hash: hashApiKey(key),
      key_hint: keyHint(key),
      created_by_user_id: input.createdByUserId,
      creator: input.creator,
    },
    context,
    orgId: input.orgId,
  })
  return { id: keyId, key, name: input.name, scopes: input.scopes.join(','), org_id: input.orgId, position: outcome.position }
}

export async function revokeApiKey(
  deps: WriteDeps,
  context: CommandContext,
  input: { keyId: number; callerOrgId: number | null },
): Promise<{ position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: apiKey,
    id: input.keyId,
    command: { type: 'RevokeApiKey', key_id: input.keyId, caller_org_id: input.callerOrgId },
    context,
  })
  return { position: outcome.position }
}

/** Sets (or, with null, clears) a key's own per-minute rate limit; the API enforces it from the next request. */
export async function setApiKeyRateLimit(
  deps: WriteDeps,
  context: CommandContext,
  input: { keyId: number; perMinute: number | null },
): Promise<{ position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: apiKey,
    id: input.keyId,
    command: { type: 'SetApiKeyRateLimit', key_id: input.keyId, per_minute: input.perMinute },
    context,
  })
  return { position: outcome.position }
}
