import { z } from 'zod'
import { Id, Name } from '../shared/values.js'
import { SCOPES } from './scopes.js'

export const ApiKeyCreated = z.object({
  key_id: Id,
  /** null: a partner/platform key (cross-organization service account). */
  org_id: Id.nullable(),
  name: Name,
  notes: z.string().max(2000),
  scopes: z.array(z.enum(SCOPES)).min(1),
  /** sha256 of the plaintext key, hex. The plaintext never enters the log. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The first characters of the key, so a person can tell keys apart. */
  key_hint: z.string().max(16),
  created_by_user_id: Id.nullable(),
})

export const ApiKeyRevoked = z.object({ key_id: Id })

/** A per-key rate limit (requests per minute); null returns the key to the service default. */
export const ApiKeyRateLimitSet = z.object({ key_id: Id, per_minute: z.number().int().min(1).max(1_000_000).nullable() })

export const apiKeyEventSchemas = { ApiKeyCreated, ApiKeyRevoked, ApiKeyRateLimitSet } as const

export type ApiKeyEvent =
  | { type: 'ApiKeyCreated'; data: z.infer<typeof ApiKeyCreated> }
  | { type: 'ApiKeyRevoked'; data: z.infer<typeof ApiKeyRevoked> }
  | { type: 'ApiKeyRateLimitSet'; data: z.infer<typeof ApiKeyRateLimitSet> }
