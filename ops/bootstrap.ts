import { hashApiKey } from '../commands/api-keys.js'
import { claimBootstrap, isBootstrapped, mintPlatformKey } from '../commands/platform.js'
import type { System } from './system.js'

/** How long start-up waits for the projections to reflect the log before deciding about keys. */
const CATCH_UP_MS = 120_000

export interface BootstrapOutcome {
  /** The plaintext of a key minted on this first start, to print once; null otherwise. */
  readonly mintedKey: string | null
  readonly keyId: number | null
}

/**
 * First start: mint a platform key (printed once by the caller). With PLATFORM_KEY, make sure that key
 * exists as a platform key instead, so automation can use it at once. Needs the projection runner running.
 */
export async function bootstrapPlatform(system: System, platformKey: string | undefined): Promise<BootstrapOutcome> {
  const head = await system.store.headPosition()
  if (head !== null && !(await system.watermark.waitFor(head, CATCH_UP_MS))) {
    throw new Error('The read models did not catch up with the log in time; is a projection runner running?')
  }

  if (platformKey !== undefined) {
    const existing = await system.read
      .selectFrom('api_keys')
      .select(['id', 'org_id', 'revoked_at'])
      .where('key_hash', '=', hashApiKey(platformKey))
      .executeTakeFirst()
    if (existing?.revoked_at) throw new Error(`PLATFORM_KEY was revoked (key ${existing.id}); set a new one`)
    if (existing && existing.org_id !== null) {
      throw new Error(`PLATFORM_KEY is an organization key (key ${existing.id}, organization ${existing.org_id}), not a platform key`)
    }
    let keyId = existing?.id
    if (keyId === undefined) {
      const created = await mintPlatformKey(system.write, { name: 'Platform key (PLATFORM_KEY)', plaintext: platformKey })
      keyId = created.id
      if (created.position) await system.watermark.waitFor(created.position, CATCH_UP_MS)
    }
    if (!(await isBootstrapped(system.write))) await claimBootstrap(system.write, keyId)
    return { mintedKey: null, keyId }
  }

  if (await isBootstrapped(system.write)) return { mintedKey: null, keyId: null }
  const keyId = await system.write.ids.next('api_key')
  if (!(await claimBootstrap(system.write, keyId))) return { mintedKey: null, keyId: null }
  const created = await mintPlatformKey(system.write, { name: 'Bootstrap platform key', keyId })
  if (created.position) await system.watermark.waitFor(created.position, CATCH_UP_MS)
  return { mintedKey: created.key, keyId: created.id }
}
