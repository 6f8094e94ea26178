import {
  assertVisible,
  client,
  clientStream,
  findLocation,
  findService,
  type ClientCommand,
  type ClientState,
} from '../domain/clients/client.js'
import { createHash } from 'node:crypto'
import { clientIdentity, clientIdentityKey, identityHolds } from '../domain/clients/identity.js'
import { clientSlug } from '../domain/clients/slug.js'
import { slugCandidates } from '../domain/clients/slug-from-name.js'
import { DomainError } from '../domain/shared/errors.js'
import { nextStatusTimes, type ClientStatus, type StatusTimes } from '../domain/clients/values.js'
import { loadState, handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from './command-handler.js'
import { decode } from './event-store/decode.js'
import type { EventStore, Position } from './event-store/port.js'
import { assertOrganizationExists } from './organizations.js'
import type { ClientEvent } from '../domain/clients/events.js'

type Outcome = CommandOutcome<ClientState, ClientEvent>

function run(deps: WriteDeps, context: CommandContext, command: ClientCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: client, id: command.client_id, command, context })
}

/** The client's current state, folded from its stream: the authority on its organization and status. */
export function loadClient(store: EventStore, clientId: number): Promise<ClientState> {
  return loadState(store, client, clientId)
}

function slugCommand(
  deps: WriteDeps,
  context: CommandContext,
  type: 'ClaimSlug' | 'ReleaseSlug',
  orgId: number,
  slug: string,
  clientId: number,
) {
  return handleCommand(deps, {
    aggregate: clientSlug,
    id: { orgId, slug },
    command: { type, org_id: orgId, slug, client_id: clientId },
    context,
    orgId,
  })
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

/**
 * Claims the first free slug of `candidates` for the client (slug_taken moves on to the next one); '' when
 * every one is taken (the client then has no slug, as a name without a slug gives).
 */
async function claimFreeSlug(
  deps: WriteDeps,
  context: CommandContext,
  orgId: number,
  candidates: readonly string[],
  clientId: number,
): Promise<string> {
  for (const slug of candidates) {
    try {
      await slugCommand(deps, context, 'ClaimSlug', orgId, slug, clientId)
      return slug
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'slug_taken')) throw error
    }
  }
  return ''
}

/** slug_taken when another client holds the slug: the claim's own rule, asked without appending (the claim still decides races). */
async function assertSlugFree(deps: WriteDeps, orgId: number, slug: string, clientId: number): Promise<void> {
  const state = await loadState(deps.store, clientSlug, { orgId, slug })
  clientSlug.decide({ type: 'ClaimSlug', org_id: orgId, slug, client_id: clientId }, state)
}

async function releaseSlug(deps: WriteDeps, context: CommandContext, orgId: number, slug: string, clientId: number): Promise<void> {
  if (slug !== '') await slugCommand(deps, context, 'ReleaseSlug', orgId, slug, clientId)
}

/**
 * Which reservation of a client identity (domain/clients/identity.ts). The key holds a name and a URL of up
 * to 2,000 characters, too long for a stream name (a primary key), so the stream is named by its digest.
 */
const identityId = (orgId: number, key: string) => ({ orgId, keyDigest: createHash('sha256').update(key).digest('hex').slice(0, 32) })

/** How long add_client waits for a client another add_client has claimed the identity for but not yet created. */
const IDENTITY_WAIT_ATTEMPTS = 40
const IDENTITY_WAIT_MS = 50
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * add_client's get-or-create: the id of the live client of the organization with this name and website, or
 * null once this add_client holds the identity for `clientId` (then it creates the client). A holder that
 * was renamed, moved or deleted is taken over; a holder whose creation is still under way (claimed a moment
 * ago by a concurrent add_client) is waited for briefly, and taken over if it never appears (its add_client
 * failed, say with slug_taken).
 */
async function holderOrClaim(
  deps: WriteDeps,
  context: CommandContext,
  orgId: number,
  key: string,
  clientId: number,
  beforeClaim: () => Promise<void>,
): Promise<number | null> {
  const identityOf = identityId(orgId, key)
  for (let attempt = 1; ; attempt++) {
    const { owner } = await loadState(deps.store, clientIdentity, identityOf)
    let stale: number | null = null
    if (owner !== null && owner !== clientId) {
      const holder = await loadClient(deps.store, owner)
      if (identityHolds(holder, orgId, key)) return owner
      if (!holder.exists && attempt < IDENTITY_WAIT_ATTEMPTS) {
        await pause(IDENTITY_WAIT_MS)
        continue
      }
      stale = owner
    }
    await beforeClaim()
    const outcome = await handleCommand(deps, {
      aggregate: clientIdentity,
      id: identityOf,
      command: { type: 'ClaimIdentity', org_id: orgId, client_id: clientId, stale_owner: stale },
      context,
      orgId,
    })
    if (outcome.state.owner === clientId) return null
    // Another add_client claimed it in between: look at its holder again.
  }
}

export interface NewClientInput {
  readonly orgId: number
  readonly name: string
  readonly websiteUrl: string
  /** Undefined: derived from the name, the first free of "name", "name-2", … (domain/clients/slug-from-name.ts). */
  readonly slug: string | undefined
  readonly status: ClientStatus
  readonly services: readonly { name: string; description: string }[]
  readonly locations: readonly { name: string; city: string; state: string; country: string }[]
  readonly settings: Record<string, string>
}

export interface AddedClient {
  readonly clientId: number
  /** True when a live client with the same name and website answered (get-or-create): nothing was written. */
  readonly existing: boolean
  /**
   * Where the read models show the client: the new client's last event, or the existing client's (which a
   * concurrent add_client may have appended a moment ago, so the caller waits for it before answering).
   */
  readonly position: Position | null
}

async function lastPosition(store: EventStore, stream: string): Promise<Position | null> {
  let position: Position | null = null
  for await (const event of store.readStream(stream)) position = event.position
  return position
}

/**
 * add_client: get-or-create by name and website within the organization (domain/clients/identity.ts), then
 * the client with its slug (given, or derived from the name), services, locations and settings.
 */
export async function addClient(deps: WriteDeps, context: CommandContext, input: NewClientInput): Promise<AddedClient> {
  await assertOrganizationExists(deps, input.orgId)
  const clientId = await deps.ids.next('client')
  // Get-or-create: the same name and website as a live client of the organization answers that client.
  const identity = clientIdentityKey(input.name, input.websiteUrl)
  // A given slug another client holds is refused before anything is written (a refusal changes nothing);
  // after the get-or-create check, so that asking again for a client with its own slug answers the client.
  const slugFree = async () => {
    if (input.slug !== undefined && input.slug !== '' && input.status !== 'deleted')
      await assertSlugFree(deps, input.orgId, input.slug, clientId)
  }
  const holder = await holderOrClaim(deps, context, input.orgId, identity, clientId, slugFree)
  if (holder !== null) return { clientId: holder, existing: true, position: await lastPosition(deps.store, clientStream(holder)) }
  try {
    return await createClient(deps, context, input, clientId)
  } catch (error) {
    // The client will never exist: free the identity at once, so the next add_client need not wait for it.
    await handleCommand(deps, {
      aggregate: clientIdentity,
      id: identityId(input.orgId, identity),
      command: { type: 'ReleaseIdentity', org_id: input.orgId, client_id: clientId },
      context,
      orgId: input.orgId,
    })
    throw error
  }
}

async function createClient(deps: WriteDeps, context: CommandContext, input: NewClientInput, clientId: number): Promise<AddedClient> {
  const serviceIds = await deps.ids.nextMany('service', input.services.length)
  const locationIds = await deps.ids.nextMany('location', input.locations.length)
  const command = (slug: string): ClientCommand => ({
    type: 'AddClient',
    client_id: clientId,
    org_id: input.orgId,
    name: input.name,
    website_url: input.websiteUrl,
    slug,
    status: input.status,
    services: input.services.map((s, i) => ({ service_id: serviceIds[i]!, ...s })),
    locations: input.locations.map((l, i) => ({ location_id: locationIds[i]!, ...l })),
    settings: input.settings,
  })
  // A client created deleted holds no slug (a derived one is not reserved either); restoring it claims the slug then.
  const deleted = input.status === 'deleted'
  const slug =
    input.slug ??
    (deleted
      ? (slugCandidates(input.name, clientId)[0] ?? '')
      : await claimFreeSlug(deps, context, input.orgId, slugCandidates(input.name, clientId), clientId))
  // A derived slug is claimed already: withSlug's claim of it changes nothing, and it releases the slug if the write fails.
  const outcome = await withSlug(deps, context, input.orgId, deleted ? '' : slug, clientId, () => run(deps, context, command(slug)))
  return { clientId, existing: false, position: outcome.position }
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
  const outcome = await updateWithSlug(deps, context, input, current, command)
  await adoptIdentity(deps, context, current, outcome.state)
  return outcome
}

async function updateWithSlug(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; slug?: string },
  current: ClientState,
  command: ClientCommand,
): Promise<Outcome> {
  if (input.slug === undefined || input.slug === current.slug || current.status === 'deleted') return run(deps, context, command)
  const outcome = await withSlug(deps, context, current.orgId, input.slug, input.clientId, () => run(deps, context, command))
  if (outcome.state.slug !== current.slug) await releaseSlug(deps, context, current.orgId, current.slug, input.clientId)
  return outcome
}

/**
 * After a client took a new name or website, or was restored: it claims that identity for add_client's
 * get-or-create, unless another live client already holds it (then both exist, and add_client answers the
 * holder). Without this, add_client with the new name would make a second client.
 */
async function adoptIdentity(deps: WriteDeps, context: CommandContext, before: ClientState, after: ClientState): Promise<void> {
  const key = clientIdentityKey(after.name, after.websiteUrl)
  const unchanged = key === clientIdentityKey(before.name, before.websiteUrl) && before.status !== 'deleted'
  if (unchanged || after.status === 'deleted') return
  const identityOf = identityId(after.orgId, key)
  const { owner } = await loadState(deps.store, clientIdentity, identityOf)
  if (owner === after.id) return
  if (owner !== null && identityHolds(await loadClient(deps.store, owner), after.orgId, key)) return
  await handleCommand(deps, {
    aggregate: clientIdentity,
    id: identityOf,
    command: { type: 'ClaimIdentity', org_id: after.orgId, client_id: after.id, stale_owner: owner },
    context,
    orgId: after.orgId,
  })
}

/** Deleting a client frees its slug; restoring it takes the slug back (slug_taken if another client has it now). */
export async function setClientStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; status: ClientStatus },
): Promise<Outcome> {
  const command: ClientCommand = {
    type: 'SetClientStatus',
    client_id: input.clientId,
    status: input.status,
    caller_org_id: input.callerOrgId,
  }
  const current = await loadClient(deps.store, input.clientId)
  assertVisible(current, input.callerOrgId, input.clientId)
  if (current.status === 'deleted' && input.status !== 'deleted') {
    const outcome = await withSlug(deps, context, current.orgId, current.slug, input.clientId, () => run(deps, context, command))
    await adoptIdentity(deps, context, current, outcome.state)
    return outcome
  }
  const outcome = await run(deps, context, command)
  if (input.status === 'deleted' && current.status !== 'deleted')
    await releaseSlug(deps, context, current.orgId, current.slug, input.clientId)
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
  let createdAt: string | undefined
  let updatedAt: string | undefined
  for await (const recorded of deps.store.readStream(clientStream(clientId))) {
    const event = decode(recorded)
    // Every appended event carries occurred_at; one written without it counts as happening when recorded.
    const occurredAt = event.metadata.occurred_at ?? event.recordedAt.toISOString()
    if (new Date(occurredAt).getTime() > asOf.getTime()) break
    if (event.type === 'ClientAdded') times = nextStatusTimes(times, null, event.data.status, occurredAt)
    if (event.type === 'ClientStatusChanged') times = nextStatusTimes(times, event.data.from, event.data.to, occurredAt)
    state = client.evolve(state, event as ClientEvent)
    createdAt ??= occurredAt
    updatedAt = occurredAt
  }
  if (createdAt === undefined || updatedAt === undefined) return null
  return { state, createdAt, updatedAt, times }
}
