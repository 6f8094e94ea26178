import { client, clientStream, findLocation, findService, type ClientCommand, type ClientState } from '../domain/clients/client.js'
import { nextStatusTimes, type ClientStatus, type StatusTimes } from '../domain/clients/values.js'
import { handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from './command-handler.js'
import type { Position, RecordedEvent } from './event-store/port.js'
import { assertOrganizationExists } from './organizations.js'
import type { ClientEvent } from '../domain/clients/events.js'

type Outcome = CommandOutcome<ClientState, ClientEvent>

function run(deps: WriteDeps, context: CommandContext, command: ClientCommand): Promise<Outcome> {
  return handleCommand(deps, client, clientStream(command.client_id), command, context, (state) => state.orgId)
}

export interface NewClientInput {
  readonly orgId: number
  readonly name: string
  readonly websiteUrl: string
  readonly slug: string
  readonly status: ClientStatus
  readonly services: readonly { name: string; description: string }[]
  readonly locations: readonly { name: string; city: string; state: string; country: string }[]
  readonly settings: Record<string, string>
}

export async function addClient(
  deps: WriteDeps,
  context: CommandContext,
  input: NewClientInput,
): Promise<{ clientId: number; position: Position | null }> {
  await assertOrganizationExists(deps, input.orgId)
  const clientId = await deps.ids.next('client')
  const serviceIds = await deps.ids.nextMany('service', input.services.length)
  const locationIds = await deps.ids.nextMany('location', input.locations.length)
  const outcome = await run(deps, context, {
    type: 'AddClient',
    client_id: clientId,
    org_id: input.orgId,
    name: input.name,
    website_url: input.websiteUrl,
    slug: input.slug,
    status: input.status,
    services: input.services.map((s, i) => ({ service_id: serviceIds[i]!, ...s })),
    locations: input.locations.map((l, i) => ({ location_id: locationIds[i]!, ...l })),
    settings: input.settings,
  })
  return { clientId, position: outcome.position }
}

type Caller = { readonly callerOrgId: number | null }

export async function updateClient(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; name?: string; websiteUrl?: string; slug?: string },
): Promise<Outcome> {
  const command: ClientCommand = { type: 'UpdateClient', client_id: input.clientId, caller_org_id: input.callerOrgId }
  if (input.name !== undefined) command.name = input.name
  if (input.websiteUrl !== undefined) command.website_url = input.websiteUrl
  if (input.slug !== undefined) command.slug = input.slug
  return run(deps, context, command)
}

export function setClientStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; status: ClientStatus },
): Promise<Outcome> {
  return run(deps, context, { type: 'SetClientStatus', client_id: input.clientId, status: input.status, caller_org_id: input.callerOrgId })
}

/** Get-or-create by name; returns the id of the new or the existing service. */
export async function addService(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; name: string; description: string },
): Promise<{ serviceId: number; position: Position | null }> {
  const serviceId = await deps.ids.next('service')
  const outcome = await run(deps, context, {
    type: 'AddService',
    client_id: input.clientId,
    service_id: serviceId,
    name: input.name,
    description: input.description,
    caller_org_id: input.callerOrgId,
  })
  return { serviceId: findService(outcome.state, input.name)!.id, position: outcome.position }
}

/** Get-or-create by display name; returns the id of the new or the existing location. */
export async function addLocation(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; name: string; city: string; state: string; country: string },
): Promise<{ locationId: number; position: Position | null }> {
  const locationId = await deps.ids.next('location')
  const outcome = await run(deps, context, {
    type: 'AddLocation',
    client_id: input.clientId,
    location_id: locationId,
    name: input.name,
    city: input.city,
    state: input.state,
    country: input.country,
    caller_org_id: input.callerOrgId,
  })
  return { locationId: findLocation(outcome.state, input.name)!.id, position: outcome.position }
}

export async function removeLocations(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number },
): Promise<{ removed: number; position: Position | null }> {
  const outcome = await run(deps, context, { type: 'RemoveLocations', client_id: input.clientId, caller_org_id: input.callerOrgId })
  const event = outcome.events[0]
  return { removed: event?.type === 'ClientLocationsRemoved' ? event.data.location_ids.length : 0, position: outcome.position }
}

export function setClientSetting(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; key: string; value: string },
): Promise<Outcome> {
  return run(deps, context, {
    type: 'SetClientSetting',
    client_id: input.clientId,
    key: input.key,
    value: input.value,
    caller_org_id: input.callerOrgId,
  })
}

/**
 * The client as it was at `asOf`, folded from its stream (events whose occurred_at is not after it),
 * with the timestamps of its first and last folded event. Null when it did not exist yet.
 */
export async function loadClientAsOf(
  deps: Pick<WriteDeps, 'store'>,
  clientId: number,
  asOf: Date,
): Promise<{ state: ClientState; createdAt: string; updatedAt: string; times: StatusTimes } | null> {
  let state = client.initialState()
  let times: StatusTimes = { deactivatedAt: null, deletedAt: null }
  let first: RecordedEvent | undefined
  let last: RecordedEvent | undefined
  for await (const event of deps.store.readStream(clientStream(clientId))) {
    if (new Date(event.metadata.occurred_at).getTime() > asOf.getTime()) break
    const domainEvent = { type: event.type, data: event.data } as ClientEvent
    if (domainEvent.type === 'ClientAdded') times = nextStatusTimes(times, null, domainEvent.data.status, event.metadata.occurred_at)
    if (domainEvent.type === 'ClientStatusChanged') {
      times = nextStatusTimes(times, domainEvent.data.from, domainEvent.data.to, event.metadata.occurred_at)
    }
    state = client.evolve(state, domainEvent)
    first ??= event
    last = event
  }
  if (!first || !last) return null
  return { state, createdAt: first.metadata.occurred_at, updatedAt: last.metadata.occurred_at, times }
}
