import { z } from 'zod'
import { createApiKey, revokeApiKey, setApiKeyRateLimit } from '../../commands/api-keys.js'
import { DEFAULT_SCOPES, parseScopes } from '../../domain/api-keys/scopes.js'
import { Id, Name } from '../../domain/shared/values.js'
import { rpc } from '../registry.js'
import { KeyId } from './ids.js'

const domain = 'org-admin'

const ApiKeyView = z.object({
  id: Id,
  org_id: Id.nullable(),
  name: z.string(),
  notes: z.string(),
  scopes: z.string(),
  key_hint: z.string(),
  created_by_user_id: Id.nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  /** The key's own requests-per-minute limit; null: the service default. */
  rate_limit_per_minute: z.number().int().nullable(),
})

export const apiKeyRpcs = [
  rpc({
    name: 'create_api_key',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Mint an API key. An organization key mints keys for its own organization; a platform key passes org_id, or omits it for another platform key. The plaintext key is returned once; only its sha256 is stored.',
    example: {
      params: { name: 'Reporting agent', scopes: 'read' },
      result: { id: 41, key: 'rr_live_3q9Xv7mK2pL8sT4wZ6yB1nC5dF0gH', name: 'Reporting agent', scopes: 'read', org_id: 12 },
    },
    params: z.strictObject({
      name: Name.describe('A name for people to tell keys apart, 1 to 200 characters'),
      created_by_user_id: Id.nullable().default(null).describe('The member the key is made for, recorded with it (default null: none)'),
      notes: z.string().max(2000).default('').describe('Free text for people, at most 2000 characters (default empty)'),
      scopes: z
        .string()
        .max(100)
        .default(DEFAULT_SCOPES)
        .describe(`The key's scopes, comma-separated from read, write and jobs (default "${DEFAULT_SCOPES}")`),
    }),
    result: z.object({ id: Id, key: z.string(), name: z.string(), scopes: z.string(), org_id: Id.nullable() }),
    async handler(ctx) {
      const p = ctx.params
      const created = await createApiKey(ctx.write, ctx.command, {
        name: p.name,
        notes: p.notes,
        scopes: parseScopes(p.scopes),
        orgId: ctx.orgId,
        createdByUserId: p.created_by_user_id,
        creator: { orgId: ctx.caller.orgId, scopes: ctx.caller.scopes },
      })
      return { id: created.id, key: created.key, name: created.name, scopes: created.scopes, org_id: created.org_id }
    },
  }),
  rpc({
    name: 'list_api_keys',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's API keys (a platform key without org_id lists platform keys). Never returns keys or hashes, only a short hint.",
    example: { params: { include_revoked: false } },
    params: z.strictObject({ include_revoked: z.boolean().default(false).describe('Also list revoked keys (default false)') }),
    result: z.array(ApiKeyView),
    async handler(ctx) {
      let query = ctx.read
        .selectFrom('api_keys')
        .select([
          'id',
          'org_id',
          'name',
          'notes',
          'scopes',
          'key_hint',
          'created_by_user_id',
          'created_at',
          'revoked_at',
          'rate_limit_per_minute',
        ])
        .orderBy('id')
      query = ctx.orgId === null ? query.where('org_id', 'is', null) : query.where('org_id', '=', ctx.orgId)
      if (!ctx.params.include_revoked) query = query.where('revoked_at', 'is', null)
      const rows = await query.execute()
      return rows.map((r) => ({
        ...r,
        created_at: r.created_at.toISOString(),
        revoked_at: r.revoked_at === null ? null : r.revoked_at.toISOString(),
      }))
    },
  }),
  rpc({
    name: 'revoke_api_key',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Revoke an API key at once (it answers 401 from then on). Revoking twice is harmless.',
    example: { params: { key_id: 41 }, result: { id: 41, revoked: true } },
    params: z.strictObject({ key_id: KeyId }),
    result: z.object({ id: Id, revoked: z.literal(true) }),
    async handler(ctx) {
      await revokeApiKey(ctx.write, ctx.command, { keyId: ctx.params.key_id, callerOrgId: ctx.orgId })
      return { id: ctx.params.key_id, revoked: true as const }
    },
  }),
  rpc({
    name: 'set_api_key_rate_limit',
    domain,
    access: 'write',
    orgScoped: false,
    platformOnly: true,
    summary:
      "Give a key its own rate limit in requests per minute, or pass null to return it to the service default (RATE_LIMIT_PER_MINUTE). Platform keys only: a limit an organization could raise for itself would protect nothing. Applies from the key's next request.",
    example: { params: { key_id: 41, per_minute: 1200 }, result: { id: 41, per_minute: 1200, effective_per_minute: 1200 } },
    params: z.strictObject({
      key_id: KeyId,
      per_minute: z
        .number()
        .int()
        .min(1)
        .max(1_000_000)
        .nullable()
        .describe('Requests per minute, 1 to 1,000,000; null: the service default (RATE_LIMIT_PER_MINUTE)'),
    }),
    result: z.object({ id: Id, per_minute: z.number().int().nullable(), effective_per_minute: z.number().int() }),
    async handler(ctx) {
      await setApiKeyRateLimit(ctx.write, ctx.command, { keyId: ctx.params.key_id, perMinute: ctx.params.per_minute })
      return {
        id: ctx.params.key_id,
        per_minute: ctx.params.per_minute,
        effective_per_minute: ctx.params.per_minute ?? ctx.settings.rateLimits.defaultPerMinute,
      }
    },
  }),
]
