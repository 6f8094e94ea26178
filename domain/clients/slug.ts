import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import type { ClientSlugEvent } from './events.js'

/**
 * A slug is unique among an organization's live clients: a rule across clients, so it is decided by a
 * reservation stream of its own per (organization, slug), claimed before a client takes the slug and
 * released when the client drops it (another slug, or deleted).
 */
export const clientSlugStream = (orgId: number, slug: string) => `client_slug-${orgId}-${slug}`

export interface SlugState {
  readonly owner: number | null
}

export type SlugCommand =
  | { type: 'ClaimSlug'; org_id: number; slug: string; client_id: number }
  | { type: 'ReleaseSlug'; org_id: number; slug: string; client_id: number }

export const clientSlug: Aggregate<SlugState, SlugCommand, ClientSlugEvent, { readonly orgId: number; readonly slug: string }> = {
  streamOf: (id) => clientSlugStream(id.orgId, id.slug),
  initialState: () => ({ owner: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'ClientSlugClaimed':
        return { owner: event.data.client_id }
      case 'ClientSlugReleased':
        return state.owner === event.data.client_id ? { owner: null } : state
    }
  },

  decide(command, state) {
    const { org_id, slug, client_id } = command
    switch (command.type) {
      case 'ClaimSlug':
        if (state.owner === client_id) return []
        if (state.owner !== null)
          throw new DomainError(
            'slug_taken',
            'Another client of the organization has this slug',
            `slug "${slug}" is used by client ${state.owner}`,
          )
        return [{ type: 'ClientSlugClaimed', data: { org_id, slug, client_id } }]
      case 'ReleaseSlug':
        if (state.owner !== client_id) return []
        return [{ type: 'ClientSlugReleased', data: { org_id, slug, client_id } }]
    }
  },
}
