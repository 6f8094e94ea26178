import { DomainError, NotFoundError } from '../shared/errors.js'
import type { Aggregate } from '../shared/aggregate.js'
import { NO_BRANDING, type Branding } from './branding.js'
import type { OrganizationEvent } from './events.js'

/** An organization is a tenant: every client, key and event belongs to one. Stream `organization-<id>`. */
export const organizationStream = (orgId: number) => `organization-${orgId}`

export interface OrganizationState {
  readonly exists: boolean
  readonly name: string
  readonly branding: Branding
}

/** A branding change: an absent field is left alone, null clears it. */
export type BrandingChange = { -readonly [K in keyof Branding]?: Branding[K] }

export type OrganizationCommand =
  | { type: 'CreateOrganization'; org_id: number; name: string }
  | { type: 'UpdateBranding'; org_id: number; changes: BrandingChange }

const BRANDING_FIELDS = ['name', 'logo_url', 'accent_color'] as const

export const organization: Aggregate<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  streamOf: organizationStream,
  initialState: () => ({ exists: false, name: '', branding: NO_BRANDING }),

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { exists: true, name: event.data.name, branding: NO_BRANDING }
      case 'OrganizationBrandingUpdated': {
        const branding: { -readonly [K in keyof Branding]: Branding[K] } = { ...state.branding }
        for (const field of BRANDING_FIELDS) {
          const value = event.data[field]
          if (value !== undefined) branding[field] = value
        }
        return { ...state, branding }
      }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        if (state.exists) throw new DomainError('already_exists', 'Organization already exists', `organization ${command.org_id}`)
        return [{ type: 'OrganizationCreated', data: { org_id: command.org_id, name: command.name } }]
      case 'UpdateBranding': {
        if (!state.exists) throw new NotFoundError('organization', command.org_id)
        const changed: BrandingChange = {}
        for (const field of BRANDING_FIELDS) {
          const value = command.changes[field]
          if (value !== undefined && value !== state.branding[field]) changed[field] = value
        }
        // Setting what is already set records nothing (a retried call is harmless).
        if (Object.keys(changed).length === 0) return []
        return [{ type: 'OrganizationBrandingUpdated', data: { org_id: command.org_id, ...changed } }]
      }
    }
  },
}
