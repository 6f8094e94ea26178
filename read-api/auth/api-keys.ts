import { hashApiKey } from '../../commands/api-keys.js'
import { isSandboxKeyHash } from '../platform/sandbox.js'
import { parseScopes } from '../../domain/api-keys/scopes.js'
import type { ReadDb } from '../../projections/tables.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'

/**
 * Resolves `Authorization: Bearer rrk_…` to a caller. Fails closed: anything but a known, unrevoked key
 * is 401, and the answer does not say which check failed.
 */
export async function authenticateApiKey(read: ReadDb, authorization: string | undefined): Promise<Caller> {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null
  const token = match?.[1]
  if (!token) throw new ApiError('unauthorized', 'no bearer token in the Authorization header')
  if (!token.startsWith('rrk_')) throw new ApiError('unauthorized', 'unknown or revoked credentials')
  const row = await read
    .selectFrom('api_keys')
    .select(['id', 'org_id', 'scopes', 'key_hash', 'rate_limit_per_minute'])
    .where('key_hash', '=', hashApiKey(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row) throw new ApiError('unauthorized', 'unknown or revoked credentials')
  return {
    actor: { kind: 'api_key', id: row.id },
    orgId: row.org_id,
    scopes: parseScopes(row.scopes),
    sandbox: isSandboxKeyHash(row.key_hash),
    rateLimitPerMinute: row.rate_limit_per_minute,
  }
}
