import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import type { ClientEvent } from './events.js'
import { nameKey, type ClientStatus } from './values.js'

/**
 * A client (a tracked website) with its services, locations and settings: one stream, `client-<id>`,
 * because "one service or location name once per client" is decided against the whole client.
 */
export const clientStream = (clientId: number) => `client-${clientId}`

export interface ServiceRecord {
  readonly id: number
  readonly name: string
  readonly description: string
}

export interface LocationRecord {
  readonly id: number
  readonly name: string
  readonly city: string
  readonly state: string
  readonly country: string
}

export interface ClientState {
  readonly exists: boolean
  readonly id: number
  readonly orgId: number
  readonly name: string
  readonly websiteUrl: string
  readonly slug: string
  readonly status: ClientStatus
  readonly services: readonly ServiceRecord[]
  /** Current locations only; removed ones are dropped. */
  readonly locations: readonly LocationRecord[]
  readonly settings: Readonly<Record<string, string>>
}

/** Who acts: an organization (its clients only) or the platform (null: any organization). */
type Caller = { readonly caller_org_id: number | null }

export type NewService = { service_id: number; name: string; description: string }
export type NewLocation = { location_id: number; name: string; city: string; state: string; country: string }

export type ClientCommand =
  | {
      type: 'AddClient'
      client_id: number
      org_id: number
      name: string
      website_url: string
      slug: string
      status: ClientStatus
      services: NewService[]
      locations: NewLocation[]
      settings: Record<string, string>
    }
  | ({ type: 'UpdateClient'; client_id: number; name?: string; website_url?: string; slug?: string } & Caller)
  | ({ type: 'SetClientStatus'; client_id: number; status: ClientStatus } & Caller)
  | ({ type: 'AddService'; client_id: number } & NewService & Caller)
  | ({ type: 'AddLocation'; client_id: number } & NewLocation & Caller)
  | ({ type: 'RemoveLocations'; client_id: number } & Caller)
  | ({ type: 'SetClientSetting'; client_id: number; key: string; value: string } & Caller)

const initialState = (): ClientState => ({
  exists: false,
  id: 0,
  orgId: 0,
  name: '',
  websiteUrl: '',
  slug: '',
  status: 'active',
  services: [],
  locations: [],
  settings: {},
})

/** The one visibility rule: another organization's client answers exactly like a missing one. */
export function assertVisible(state: ClientState, callerOrgId: number | null, clientId: number): void {
  if (!state.exists || (callerOrgId !== null && state.orgId !== callerOrgId)) throw new NotFoundError('client', clientId)
}

function assertWritable(state: ClientState): void {
  if (state.status === 'deleted') {
    throw new DomainError('client_deleted', 'The client is deleted', `client ${state.id}`)
  }
}

export function findService(state: ClientState, name: string): ServiceRecord | undefined {
  return state.services.find((s) => nameKey(s.name) === nameKey(name))
}

export function findLocation(state: ClientState, name: string): LocationRecord | undefined {
  return state.locations.find((l) => nameKey(l.name) === nameKey(name))
}

function evolve(state: ClientState, event: ClientEvent): ClientState {
  switch (event.type) {
    case 'ClientAdded':
      return {
        ...initialState(),
        exists: true,
        id: event.data.client_id,
        orgId: event.data.org_id,
        name: event.data.name,
        websiteUrl: event.data.website_url,
        slug: event.data.slug,
        status: event.data.status,
      }
    case 'ClientUpdated': {
      const { name, website_url, slug } = event.data
      return {
        ...state,
        name: name ?? state.name,
        websiteUrl: website_url ?? state.websiteUrl,
        slug: slug ?? state.slug,
      }
    }
    case 'ClientStatusChanged':
      return { ...state, status: event.data.to }
    case 'ClientServiceAdded': {
      const { service_id: id, name, description } = event.data
      return { ...state, services: [...state.services, { id, name, description }] }
    }
    case 'ClientLocationAdded': {
      const { location_id: id, name, city, state: region, country } = event.data
      return { ...state, locations: [...state.locations, { id, name, city, state: region, country }] }
    }
    case 'ClientLocationsRemoved': {
      const removed = new Set(event.data.location_ids)
      return { ...state, locations: state.locations.filter((l) => !removed.has(l.id)) }
    }
    case 'ClientSettingSet':
      return { ...state, settings: { ...state.settings, [event.data.key]: event.data.value } }
  }
}

function decide(command: ClientCommand, state: ClientState): ClientEvent[] {
  if (command.type === 'AddClient') {
    if (state.exists) throw new DomainError('already_exists', 'Client already exists', `client ${command.client_id}`)
    const { client_id, org_id, name, website_url, slug, status } = command
    const events: ClientEvent[] = [{ type: 'ClientAdded', data: { client_id, org_id, name, website_url, slug, status } }]
    const seenServices = new Set<string>()
    for (const s of command.services) {
      if (seenServices.has(nameKey(s.name))) continue
      seenServices.add(nameKey(s.name))
      events.push({ type: 'ClientServiceAdded', data: { client_id, ...s } })
    }
    const seenLocations = new Set<string>()
    for (const l of command.locations) {
      if (seenLocations.has(nameKey(l.name))) continue
      seenLocations.add(nameKey(l.name))
      events.push({ type: 'ClientLocationAdded', data: { client_id, ...l } })
    }
    for (const [key, value] of Object.entries(command.settings)) {
      events.push({ type: 'ClientSettingSet', data: { client_id, key, value } })
    }
    return events
  }

  assertVisible(state, command.caller_org_id, command.client_id)
  const client_id = command.client_id
  switch (command.type) {
    case 'UpdateClient': {
      assertWritable(state)
      const changes: { name?: string; website_url?: string; slug?: string } = {}
      if (command.name !== undefined && command.name !== state.name) changes.name = command.name
      if (command.website_url !== undefined && command.website_url !== state.websiteUrl) changes.website_url = command.website_url
      if (command.slug !== undefined && command.slug !== state.slug) changes.slug = command.slug
      if (Object.keys(changes).length === 0) return []
      return [{ type: 'ClientUpdated', data: { client_id, ...changes } }]
    }
    case 'SetClientStatus':
      if (command.status === state.status) return []
      return [{ type: 'ClientStatusChanged', data: { client_id, from: state.status, to: command.status } }]
    case 'AddService': {
      assertWritable(state)
      // Get-or-create by name: asking twice for the same service must not create two.
      if (findService(state, command.name)) return []
      const { service_id, name, description } = command
      return [{ type: 'ClientServiceAdded', data: { client_id, service_id, name, description } }]
    }
    case 'AddLocation': {
      assertWritable(state)
      if (findLocation(state, command.name)) return []
      const { location_id, name, city, state: region, country } = command
      return [{ type: 'ClientLocationAdded', data: { client_id, location_id, name, city, state: region, country } }]
    }
    case 'RemoveLocations': {
      assertWritable(state)
      if (state.locations.length === 0) return []
      return [{ type: 'ClientLocationsRemoved', data: { client_id, location_ids: state.locations.map((l) => l.id) } }]
    }
    case 'SetClientSetting':
      assertWritable(state)
      if (state.settings[command.key] === command.value) return []
      return [{ type: 'ClientSettingSet', data: { client_id, key: command.key, value: command.value } }]
  }
}

export const client: Aggregate<ClientState, ClientCommand, ClientEvent> = {
  streamOf: clientStream,
  orgOf: (state) => state.orgId,
  initialState,
  evolve,
  decide,
}
