import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { SSO_STATE_TTL_MS } from '../../domain/sso/policy.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * The OIDC sign-ins in flight: the oidc_login_states work table (migrations/0020-sso.ts says why a work table
 * rather than events). `state` is looked up by its sha256; a row is claimed by one atomic update, so a
 * replayed callback finds it used; it works for 10 minutes from its creation (by the service clock).
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export interface NewLoginState {
  readonly providerId: number
  /** The browser-binding cookie's value (only its digest is stored). */
  readonly browserToken: string
  readonly nonce: string
  readonly codeVerifierSealed: string
  readonly returnTo: string | null
  readonly now: Date
}

export async function createLoginState(db: Kysely<WorkTables>, input: NewLoginState): Promise<string> {
  const state = randomBytes(32).toString('base64url')
  await db
    .insertInto('oidc_login_states')
    .values({
      state_hash: sha256(state),
      provider_id: input.providerId,
      browser_hash: sha256(input.browserToken),
      nonce: input.nonce,
      code_verifier_sealed: input.codeVerifierSealed,
      return_to: input.returnTo,
      created_at: input.now,
      expires_at: new Date(input.now.getTime() + SSO_STATE_TTL_MS),
    })
    .execute()
  // Housekeeping: rows a day past expiry go (their only use left would be telling "reused" from "unknown").
  await db
    .deleteFrom('oidc_login_states')
    .where('expires_at', '<', new Date(input.now.getTime() - 24 * 60 * 60_000))
    .execute()
  return state
}

export interface ClaimedLoginState {
  readonly providerId: number
  readonly browserHash: string
  readonly nonce: string
  readonly codeVerifierSealed: string
  readonly returnTo: string | null
}

export type Claim =
  | { readonly ok: true; readonly row: ClaimedLoginState }
  | { readonly ok: false; readonly problem: 'state_unknown' | 'state_reused' | 'state_expired'; readonly providerId: number | null }

/** Uses the state up (whatever happens next, it never works again) and says whether it was good. */
export async function claimLoginState(db: Kysely<WorkTables>, state: string, now: Date): Promise<Claim> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(state)) return { ok: false, problem: 'state_unknown', providerId: null }
  const claimed = await db
    .updateTable('oidc_login_states')
    .set({ used_at: now })
    .where('state_hash', '=', sha256(state))
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
  if (!claimed) {
    const seen = await db.selectFrom('oidc_login_states').select(['provider_id']).where('state_hash', '=', sha256(state)).executeTakeFirst()
    return seen
      ? { ok: false, problem: 'state_reused', providerId: Number(seen.provider_id) }
      : { ok: false, problem: 'state_unknown', providerId: null }
  }
  const providerId = Number(claimed.provider_id)
  if (new Date(claimed.expires_at).getTime() <= now.getTime()) return { ok: false, problem: 'state_expired', providerId }
  return {
    ok: true,
    row: {
      providerId,
      browserHash: claimed.browser_hash,
      nonce: claimed.nonce,
      codeVerifierSealed: claimed.code_verifier_sealed,
      returnTo: claimed.return_to,
    },
  }
}

export const browserHashOf = sha256
