import { z } from 'zod'
import { Id, Name } from '../shared/values.js'

export const OrganizationCreated = z.object({ org_id: Id, name: Name })

export const organizationEventSchemas = {
  OrganizationCreated,
} as const

export type OrganizationEvent = { type: 'OrganizationCreated'; data: z.infer<typeof OrganizationCreated> }
