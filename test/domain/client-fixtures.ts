/** Events and commands of the client aggregate with sensible defaults, for given/when/then specifications. */
import type { ClientCommand } from '../../domain/clients/client.js'
import type { ClientEvent } from '../../domain/clients/events.js'

export const ORG = 7
export const OTHER_ORG = 8
export const CLIENT = 34

type EventOf<T extends ClientEvent['type']> = Extract<ClientEvent, { type: T }>
type CommandOf<T extends ClientCommand['type']> = Extract<ClientCommand, { type: T }>

export const clientAdded = (data: Partial<EventOf<'ClientAdded'>['data']> = {}): EventOf<'ClientAdded'> => ({
  type: 'ClientAdded',
  data: {
    client_id: CLIENT,
    org_id: ORG,
    name: 'Acme Plumbing',
    website_url: 'https://acme.example.com',
    slug: 'acme',
    status: 'active',
    ...data,
  },
})

export const clientUpdated = (data: Omit<EventOf<'ClientUpdated'>['data'], 'client_id'>): EventOf<'ClientUpdated'> => ({
  type: 'ClientUpdated',
  data: { client_id: CLIENT, ...data },
})

export const statusChanged = (
  from: EventOf<'ClientStatusChanged'>['data']['from'],
  to: EventOf<'ClientStatusChanged'>['data']['to'],
): EventOf<'ClientStatusChanged'> => ({ type: 'ClientStatusChanged', data: { client_id: CLIENT, from, to } })

export const serviceAdded = (service_id: number, name: string, description = ''): EventOf<'ClientServiceAdded'> => ({
  type: 'ClientServiceAdded',
  data: { client_id: CLIENT, service_id, name, description },
})

export const locationAdded = (
  location_id: number,
  name: string,
  parts: { city?: string; state?: string; country?: string } = {},
): EventOf<'ClientLocationAdded'> => ({
  type: 'ClientLocationAdded',
  data: { client_id: CLIENT, location_id, name, city: parts.city ?? '', state: parts.state ?? '', country: parts.country ?? '' },
})

export const locationsRemoved = (location_ids: number[]): EventOf<'ClientLocationsRemoved'> => ({
  type: 'ClientLocationsRemoved',
  data: { client_id: CLIENT, location_ids },
})

export const settingSet = (key: string, value: string): EventOf<'ClientSettingSet'> => ({
  type: 'ClientSettingSet',
  data: { client_id: CLIENT, key, value },
})

export const addClient = (fields: Partial<Omit<CommandOf<'AddClient'>, 'type'>> = {}): CommandOf<'AddClient'> => ({
  type: 'AddClient',
  client_id: CLIENT,
  org_id: ORG,
  name: 'Acme Plumbing',
  website_url: 'https://acme.example.com',
  slug: 'acme',
  status: 'active',
  services: [],
  locations: [],
  settings: {},
  ...fields,
})

/** One command of every kind that acts on an existing client, as the given caller. */
export function everyCallerCommand(caller_org_id: number | null): ClientCommand[] {
  return [
    { type: 'UpdateClient', client_id: CLIENT, caller_org_id, name: 'Renamed' },
    { type: 'SetClientStatus', client_id: CLIENT, caller_org_id, status: 'paused' },
    { type: 'AddService', client_id: CLIENT, caller_org_id, service_id: 500, name: 'Roofing', description: '' },
    { type: 'AddLocation', client_id: CLIENT, caller_org_id, location_id: 600, name: 'Waco', city: 'Waco', state: '', country: '' },
    { type: 'RemoveLocations', client_id: CLIENT, caller_org_id },
    { type: 'SetClientSetting', client_id: CLIENT, caller_org_id, key: 'attention_flag', value: 'call back' },
  ]
}
