import { DomainError } from '../domain/shared/errors.js'
import { PLATFORM_STREAM, platformBootstrap } from '../domain/platform/bootstrap.js'
import { SCOPES } from '../domain/api-keys/scopes.js'
import { createApiKey, type CreatedApiKey } from './api-keys.js'
import { handleCommand, systemContext, type WriteDeps } from './command-handler.js'

const PLATFORM_CREATOR = { orgId: null, scopes: [...SCOPES] }

/** Mints a platform (cross-organization) key with every scope; the plaintext is in the result, once. */
export function mintPlatformKey(
  deps: WriteDeps,
  options: { name: string; plaintext?: string | undefined; keyId?: number | undefined },
): Promise<CreatedApiKey> {
  return createApiKey(deps, systemContext('bootstrap'), {
    name: options.name,
    notes: '',
    scopes: [...SCOPES],
    orgId: null,
    createdByUserId: null,
    creator: PLATFORM_CREATOR,
    ...(options.plaintext === undefined ? {} : { plaintext: options.plaintext }),
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
  })
}

/**
 * Claims the installation's one-time bootstrap for `keyId`. Returns false when another start (or an earlier
 * one) already did: the caller then must not print a new key.
 */
export async function claimBootstrap(deps: WriteDeps, keyId: number): Promise<boolean> {
  try {
    await handleCommand(deps, {
      aggregate: platformBootstrap,
      id: null,
      command: { type: 'Bootstrap', key_id: keyId },
      context: systemContext('bootstrap'),
      orgId: null,
    })
    return true
  } catch (error) {
    if (error instanceof DomainError && error.code === 'already_exists') return false
    throw error
  }
}

export async function isBootstrapped(deps: WriteDeps): Promise<boolean> {
  for await (const _event of deps.store.readStream(PLATFORM_STREAM, { maxCount: 1 })) return true
  return false
}
