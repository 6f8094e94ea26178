import { z } from 'zod'
import { Id, Name } from '../shared/values.js'
import { ClientStatus, SettingKey, SettingValue, Slug } from './values.js'

export const ClientAdded = z.object({
  client_id: Id,
  org_id: Id,
  name: Name,
  website_url: z.string(),
  slug: Slug,
  status: ClientStatus,
})

/** Only the fields that changed are present. */
export const ClientUpdated = z.object({
  client_id: Id,
  name: Name.optional(),
  website_url: z.string().optional(),
  slug: Slug.optional(),
})

export const ClientStatusChanged = z.object({ client_id: Id, from: ClientStatus, to: ClientStatus })

export const ClientServiceAdded = z.object({
  client_id: Id,
  service_id: Id,
  name: Name,
  description: z.string().max(2000),
})

export const ClientLocationAdded = z.object({
  client_id: Id,
  location_id: Id,
  name: Name,
  city: z.string().max(200),
  state: z.string().max(100),
  country: z.string().max(100),
})

export const ClientLocationsRemoved = z.object({ client_id: Id, location_ids: z.array(Id) })

export const ClientSettingSet = z.object({ client_id: Id, key: SettingKey, value: SettingValue })

export const ClientSlugClaimed = z.object({ org_id: Id, slug: Slug, client_id: Id })
export const ClientSlugReleased = z.object({ org_id: Id, slug: Slug, client_id: Id })

export const clientSlugEventSchemas = { ClientSlugClaimed, ClientSlugReleased } as const

export type ClientSlugEvent =
  | { type: 'ClientSlugClaimed'; data: z.infer<typeof ClientSlugClaimed> }
  | { type: 'ClientSlugReleased'; data: z.infer<typeof ClientSlugReleased> }

/** add_client's get-or-create claim (domain/clients/identity.ts); `replaced`: the holder it no longer matched. */
export const ClientIdentityClaimed = z.object({ org_id: Id, client_id: Id, replaced: Id.nullable() })

export const ClientIdentityReleased = z.object({ org_id: Id, client_id: Id })

export const clientIdentityEventSchemas = { ClientIdentityClaimed, ClientIdentityReleased } as const

export type ClientIdentityEvent =
  | { type: 'ClientIdentityClaimed'; data: z.infer<typeof ClientIdentityClaimed> }
  | { type: 'ClientIdentityReleased'; data: z.infer<typeof ClientIdentityReleased> }

export const clientEventSchemas = {
  ClientAdded,
  ClientUpdated,
  ClientStatusChanged,
  ClientServiceAdded,
  ClientLocationAdded,
  ClientLocationsRemoved,
  ClientSettingSet,
} as const

type Schemas = typeof clientEventSchemas
export type ClientEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
