import { z } from 'zod'
import { Id, Name } from '../shared/values.js'
import { AccentColor, LogoUrl } from './branding.js'

export const OrganizationCreated = z.object({ org_id: Id, name: Name })

/**
 * Only the fields that changed are present; null clears a field (the report falls back to the
 * organization's name and the default accent, and shows no logo).
 */
export const OrganizationBrandingUpdated = z.object({
  org_id: Id,
  name: Name.nullable().optional(),
  logo_url: LogoUrl.nullable().optional(),
  accent_color: AccentColor.nullable().optional(),
})

export const organizationEventSchemas = {
  OrganizationCreated,
  OrganizationBrandingUpdated,
} as const

type Schemas = typeof organizationEventSchemas
export type OrganizationEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
