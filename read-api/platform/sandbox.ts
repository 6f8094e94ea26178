import { hashApiKey } from '../../commands/api-keys.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import type { Access } from '../registry.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'

/** Only the digest is compared, as for every key; the plaintext is public anyway (README). */
const SANDBOX_KEY_HASH = hashApiKey(SANDBOX_KEY)

export function isSandboxKeyHash(keyHash: string): boolean {
  return keyHash === SANDBOX_KEY_HASH
}

/**
 * The refusal of a key that is not (or no longer) known. The published sandbox key is only known where the
 * sandbox runs (SANDBOX_ENABLED seeds it), so refusing it says that rather than "unknown or revoked": the
 * key is public, so this tells nothing about any real key, which still gets the one answer for every failure.
 */
export function unknownKeyError(keyHash: string): ApiError {
  return isSandboxKeyHash(keyHash)
    ? new ApiError('sandbox_disabled', 'the sandbox key is not active on this service')
    : new ApiError('unauthorized', 'unknown or revoked credentials')
}

/**
 * The sandbox key reads and nothing else: a write answers 403 sandbox_read_only with a hint to use one's own
 * key, checked before the scope so the answer says why (the key's read-only scope would otherwise give a
 * generic insufficient_scope). Jobs follow domain/sandbox/policy.ts (sandboxMayCreateJob: export_org only).
 */
export function requireSandboxAllows(caller: Caller, access: Access): void {
  if (caller.sandbox && access !== 'read') {
    throw new ApiError('sandbox_read_only', 'the sandbox key cannot call write methods')
  }
}
