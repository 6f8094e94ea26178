import type { Aggregate } from '../shared/aggregate.js'
import type { ClientState } from './client.js'
import type { ClientIdentityEvent } from './events.js'
import { nameKey } from './values.js'

/**
 * add_client is get-or-create by name and website: asking twice for "Austin Plumbing, https://austin.example"
 * must not make two clients (the spec's rule for add_aeo_query, add_page, add_service). A rule across clients
 * of one organization, so it is decided on a reservation stream per (organization, identity), like slugs:
 * the first add_client claims it, and a later one with the same identity answers the holder's id.
 *
 * The claim is not released when the holder is renamed, moves to another URL or is deleted: whether it still
 * holds is judged from the holder's own stream when it is asked (`identityHolds`), so no second write has
 * to follow every rename. A claim whose holder no longer matches is taken over by the next add_client.
 */
export function clientIdentityKey(name: string, websiteUrl: string): string {
  return `${nameKey(name)}\n${websiteUrl}`
}

/** Whether `state` (the holder's client state) is still a live client of `orgId` with this identity. */
export function identityHolds(state: ClientState, orgId: number, key: string): boolean {
  return state.exists && state.orgId === orgId && state.status !== 'deleted' && clientIdentityKey(state.name, state.websiteUrl) === key
}

export interface IdentityState {
  readonly owner: number | null
}

/**
 * ClaimIdentity: `stale_owner` is the holder the caller found no longer holding (or never created); only it
 * may be taken over. Another holder means a concurrent add_client won: nothing is appended, and the caller
 * answers that holder's id (the state's owner).
 */
export type IdentityCommand =
  | { type: 'ClaimIdentity'; org_id: number; client_id: number; stale_owner: number | null }
  /** The add_client that claimed it failed (slug_taken, say): the client will never exist. */
  | { type: 'ReleaseIdentity'; org_id: number; client_id: number }

export const clientIdentity: Aggregate<
  IdentityState,
  IdentityCommand,
  ClientIdentityEvent,
  { readonly orgId: number; readonly keyDigest: string }
> = {
  streamOf: (id) => `client_identity-${id.orgId}-${id.keyDigest}`,
  initialState: () => ({ owner: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'ClientIdentityClaimed':
        return { owner: event.data.client_id }
      case 'ClientIdentityReleased':
        return state.owner === event.data.client_id ? { owner: null } : state
    }
  },

  decide(command, state) {
    if (command.type === 'ReleaseIdentity') {
      if (state.owner !== command.client_id) return []
      return [{ type: 'ClientIdentityReleased', data: { org_id: command.org_id, client_id: command.client_id } }]
    }
    if (state.owner === command.client_id) return []
    if (state.owner !== null && state.owner !== command.stale_owner) return []
    return [{ type: 'ClientIdentityClaimed', data: { org_id: command.org_id, client_id: command.client_id, replaced: state.owner } }]
  },
}
