import { hashApiKey } from '../../commands/api-keys.js'
import { isSandboxKeyHash, unknownKeyError } from '../platform/sandbox.js'
import { parseScopes } from '../../domain/api-keys/scopes.js'
import type { ReadDb } from '../../projections/tables.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'
import { Coalescer } from '../platform/coalesce.js'

export interface KeyRow {
  readonly id: number
  readonly org_id: number | null
  readonly scopes: string
  readonly key_hash: string
  readonly rate_limit_per_minute: number | null
}

/**
 * Concurrent requests with the same key share one lookup (read-api/platform/coalesce.ts): under load a busy
 * key is looked up once per round trip, not once per request. Not a cache: each request's verdict comes from a
 * lookup that started after it arrived, so revocation still takes effect at once.
 */
const lookups = new WeakMap<ReadDb, Coalescer<string, null, KeyRow | undefined>>()
function lookUp(read: ReadDb, keyHash: string): Promise<KeyRow | undefined> {
  let coalescer = lookups.get(read)
  if (!coalescer) {
    coalescer = new Coalescer(async (hash, inputs) => {
      const row = await read
        .selectFrom('api_keys')
        .select(['id', 'org_id', 'scopes', 'key_hash', 'rate_limit_per_minute'])
        .where('key_hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return inputs.map(() => row)
    })
    lookups.set(read, coalescer)
  }
  return coalescer.submit(keyHash, null)
}

/**
 * Resolves `Authorization: Bearer rrk_…` to a caller. Fails closed: anything but a known, unrevoked key
 * is 401, and the answer does not say which check failed.
 */
export async function authenticateApiKey(read: ReadDb, authorization: string | undefined): Promise<Caller> {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null
  const token = match?.[1]
  if (!token) throw new ApiError('unauthorized', 'no bearer token in the Authorization header')
  if (!token.startsWith('rrk_')) throw new ApiError('unauthorized', 'unknown or revoked credentials')
  const keyHash = hashApiKey(token)
  return callerOfKey(await lookUp(read, keyHash), keyHash)
}

/** The caller of a looked-up key row (undefined: unknown or revoked, 401; the sandbox key says the sandbox is off). */
export function callerOfKey(row: KeyRow | undefined, keyHash: string): Caller {
  if (!row) throw unknownKeyError(keyHash)
  return {
    actor: { kind: 'api_key', id: row.id },
    orgId: row.org_id,
    scopes: parseScopes(row.scopes),
    sandbox: isSandboxKeyHash(row.key_hash),
    rateLimitPerMinute: row.rate_limit_per_minute,
  }
}
