import { DomainError } from '../shared/errors.js'
import type { Aggregate } from '../shared/aggregate.js'
import type { OrganizationEvent } from './events.js'

/** An organization is a tenant: every client, key and event belongs to one. Stream `organization-<id>`. */
export const organizationStream = (orgId: number) => `organization-${orgId}`

export interface OrganizationState {
  readonly exists: boolean
  readonly name: string
}

export type OrganizationCommand = { type: 'CreateOrganization'; org_id: number; name: string }

export const organization: Aggregate<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({ exists: false, name: '' }),

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { exists: true, name: event.data.name }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        if (state.exists) throw new DomainError('already_exists', 'Organization already exists', `organization ${command.org_id}`)
        return [{ type: 'OrganizationCreated', data: { org_id: command.org_id, name: command.name } }]
    }
  },
}
