import {
  assertVisible,
  client,
  clientStream,
  findLocation,
  findService,
  type ClientCommand,
  type ClientState,
} from '../domain/clients/client.js'
import { clientSlug, clientSlugStream } from '../domain/clients/slug.js'
import { nextStatusTimes, type ClientStatus, type StatusTimes } from '../domain/clients/values.js'
import { loadState, handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from './command-handler.js'
import type { EventStore, Position, RecordedEvent } from './event-store/port.js'
import { assertOrganizationExists } from './organizations.js'
import type { ClientEvent } from '../domain/clients/events.js'

type Outcome = CommandOutcome<ClientState, ClientEvent>

function run(deps: WriteDeps, context: CommandContext, command: ClientCommand): Promise<Outcome> {
  return handleCommand(deps, client, clientStream(command.client_id), command, context, (state) => state.orgId)
}

/** The client's current state, folded from its stream: the authority on its organization and status. */
export function loadClient(store: EventStore, clientId: number): Promise<ClientState> {
  return loadState(store, client, clientStream(clientId))
}

function slugCommand(deps: WriteDeps, context: CommandContext, type: 'ClaimSlug' | 'ReleaseSlug', orgId: number, slug: string, clientId: number) {
  return handleCommand(deps, clientSlug, clientSlugStream(orgId, slug), { type, org_id: orgId, slug, client_id: clientId }, context, () => orgId)
}

/**
 * Runs a client write that gives the client `slug`, holding the organization's reservation of the slug
 * (slug_taken when another live client has it). The claim is released if the write fails, or if the client
 * ended up with another slug (a concurrent update won).
 */
async function withSlug(
  deps: WriteDeps,
  context: CommandContext,
  orgId: number,
  slug: string,
  clientId: number,
  write: () => Promise<Outcome>,
): Promise<Outcome> {
  if (slug === '') return write()
  await slugCommand(deps, context, 'ClaimSlug', orgId, slug, clientId)
  let outcome: Outcome
  try {
    outcome = await write()
  } catch (error) {
    await releaseSlug(deps, context, orgId, slug, clientId)
    throw error
  }
  const holds = outcome.state.slug === slug && outcome.state.status !== 'deleted'
  if (!holds) await releaseSlug(deps, context, orgId, slug, clientId)
  return outcome
}

async function releaseSlug(deps: WriteDeps, context: CommandContext, orgId: number, slug: string, clientId: number): Promise<void> {
  if (slug !== '') await slugCommand(deps, context, 'ReleaseSlug', orgId, slug, clientId)
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
  const command: ClientCommand = {
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
  }
  // A client created deleted holds no slug; restoring it claims the slug then.
  const slug = input.status === 'deleted' ? '' : input.slug
  const outcome = await withSlug(deps, context, input.orgId, slug, clientId, () => run(deps, context, command))
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
  const current = await loadClient(deps.store, input.clientId)
  assertVisible(current, input.callerOrgId, input.clientId)
  if (input.slug === undefined || input.slug === current.slug || current.status === 'deleted') return run(deps, context, command)
  const outcome = await withSlug(deps, context, current.orgId, input.slug, input.clientId, () => run(deps, context, command))
  if (outcome.state.slug !== current.slug) await releaseSlug(deps, context, current.orgId, current.slug, input.clientId)
  return outcome
}

/** Deleting a client frees its slug; restoring it takes the slug back (slug_taken if another client has it now). */
export async function setClientStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; status: ClientStatus },
): Promise<Outcome> {
  const command: ClientCommand = { type: 'SetClientStatus', client_id: input.clientId, status: input.status, caller_org_id: input.callerOrgId }
  const current = await loadClient(deps.store, input.clientId)
  assertVisible(current, input.callerOrgId, input.clientId)
  if (current.status === 'deleted' && input.status !== 'deleted') {
    return withSlug(deps, context, current.orgId, current.slug, input.clientId, () => run(deps, context, command))
  }
  const outcome = await run(deps, context, command)
  if (input.status === 'deleted' && current.status !== 'deleted') await releaseSlug(deps, context, current.orgId, current.slug, input.clientId)
  return outcome
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
