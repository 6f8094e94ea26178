import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { SSO_STATE_TTL_MS } from '../../domain/sso/policy.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * The SAML sign-ins in flight and the replay cache (migrations/0022-saml.ts). Never throws for a bad input:
 * every lookup answers what it found.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const DAY_MS = 24 * 60 * 60_000

export async function recordLoginRequest(
  db: Kysely<WorkTables>,
  input: { requestId: string; providerId: number; browserToken: string; returnTo: string | null; now: Date },
): Promise<void> {
  await db
    .insertInto('saml_login_requests')
    .values({
      request_id: input.requestId,
      provider_id: input.providerId,
      browser_hash: sha256(input.browserToken),
      return_to: input.returnTo,
      created_at: input.now,
      expires_at: new Date(input.now.getTime() + SSO_STATE_TTL_MS),
    })
    .execute()
  // Housekeeping, as for OIDC states: rows a day past expiry, and replay-cache entries past theirs.
  await db
    .deleteFrom('saml_login_requests')
    .where('expires_at', '<', new Date(input.now.getTime() - DAY_MS))
    .execute()
  await db.deleteFrom('saml_seen_assertions').where('expires_at', '<', input.now).execute()
}

export type RequestClaim =
  | { readonly ok: true; readonly browserHash: string; readonly returnTo: string | null }
  | { readonly ok: false; readonly problem: 'in_response_to_unknown' | 'state_reused' | 'state_expired' }

/** Uses the request up (a second Response to it never works) and says whether it was good for this provider. */
export async function claimLoginRequest(
  db: Kysely<WorkTables>,
  input: { requestId: string; providerId: number; now: Date },
): Promise<RequestClaim> {
  if (input.requestId.length > 200) return { ok: false, problem: 'in_response_to_unknown' }
  const claimed = await db
    .updateTable('saml_login_requests')
    .set({ used_at: input.now })
    .where('request_id', '=', input.requestId)
    .where('provider_id', '=', input.providerId)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
  if (!claimed) {
    const seen = await db
      .selectFrom('saml_login_requests')
      .select('request_id')
      .where('request_id', '=', input.requestId)
      .where('provider_id', '=', input.providerId)
      .executeTakeFirst()
    return { ok: false, problem: seen ? 'state_reused' : 'in_response_to_unknown' }
  }
  if (new Date(claimed.expires_at).getTime() <= input.now.getTime()) return { ok: false, problem: 'state_expired' }
  return { ok: true, browserHash: claimed.browser_hash, returnTo: claimed.return_to }
}

/** True the first time this provider's assertion id is seen; false for a replay. */
export async function firstSightOfAssertion(
  db: Kysely<WorkTables>,
  input: { providerId: number; assertionId: string; until: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto('saml_seen_assertions')
    .values({ provider_id: input.providerId, assertion_hash: sha256(input.assertionId), expires_at: input.until })
    .onConflict((oc) => oc.columns(['provider_id', 'assertion_hash']).doNothing())
    .returning('provider_id')
    .executeTakeFirst()
  return inserted !== undefined
}

export const browserHashOf = sha256
