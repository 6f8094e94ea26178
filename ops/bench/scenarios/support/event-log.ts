import { createHash } from 'node:crypto'
import type { EventStore, NewEvent } from '../../../../commands/event-store/port.js'
import { apiKeyStream } from '../../../../domain/api-keys/api-key.js'
import { clientStream } from '../../../../domain/clients/client.js'
import { clientSlugStream } from '../../../../domain/clients/slug.js'
import type { ClientStatus } from '../../../../domain/clients/values.js'
import { schemaOf } from '../../../../domain/events.js'
import { currentSchemaVersion } from '../../../../domain/upcasters.js'
import { organizationStream } from '../../../../domain/organizations/organization.js'
import type { EventMetadata } from '../../../../domain/shared/event.js'
import { AeoClientLog, type CommandAppends, type Draft } from './aeo-log.js'

/** mulberry32: a small seeded PRNG, so every run writes the same log. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SERVICES = [
  'Drain cleaning',
  'Water heaters',
  'Emergency plumbing',
  'Roof repair',
  'Gutter cleaning',
  'HVAC install',
  'AC repair',
  'Furnace tune-up',
  'Leak detection',
  'Sewer line repair',
  'Bathroom remodel',
  'Kitchen remodel',
  'Tree removal',
  'Pest control',
]
const CITIES: readonly (readonly [string, string])[] = [
  ['Austin', 'TX'],
  ['Dallas', 'TX'],
  ['Houston', 'TX'],
  ['Denver', 'CO'],
  ['Phoenix', 'AZ'],
  ['Reno', 'NV'],
  ['Boise', 'ID'],
  ['Tampa', 'FL'],
  ['Miami', 'FL'],
  ['Atlanta', 'GA'],
  ['Chicago', 'IL'],
  ['Portland', 'OR'],
  ['Seattle', 'WA'],
]
const SETTING_KEYS = ['tier', 'attention_flag', 'report_day', 'contact_email', 'cadence', 'last_contact', 'notes', 'brand_voice']
const WORDS = [
  'call',
  'back',
  'monday',
  'gold',
  'silver',
  'weekly',
  'monthly',
  'review',
  'rankings',
  'dropped',
  'owner',
  'prefers',
  'email',
  'updated',
  'citations',
  'photos',
  'hours',
  'holiday',
  'promo',
  'budget',
]
const BASE_TIME = Date.parse('2023-01-02T08:00:00.000Z')

interface ClientSim {
  readonly id: number
  readonly orgId: number
  name: string
  websiteUrl: string
  slug: string
  status: ClientStatus
  /** Service names in the order added. */
  services: string[]
  locations: { id: number; name: string }[]
  /** Location names ever used (get-or-create by name: a re-added name would be a no-op). */
  locationNames: number
  /** Its question set and tracker, from its first AI Visibility round on. */
  aeo?: AeoClientLog
}

interface OrgSim {
  readonly id: number
  readonly keyIds: number[]
  clients: number
  readonly targetClients: number
}

type IdKind = 'org' | 'key' | 'client' | 'service' | 'location' | 'query' | 'capture' | 'item'

/** Appends counted by event type, for the report. */
export type TypeCounts = Map<string, number>

/**
 * One agent session on one client: commands in order, each with its own metadata. The client stream's
 * events go into one append; slug reservations (other streams) are appended before (claims) and after
 * (releases), as the command handler orders them. At most one slug change per session.
 */
type SlugEvent = NewEvent & { readonly data: { readonly slug: string } }

interface Session {
  readonly client: ClientSim
  readonly claims: SlugEvent[]
  readonly events: NewEvent[]
  readonly releases: SlugEvent[]
  slugChanged: boolean
}

/**
 * One writer's share of the log: its own organizations and their clients (ids interleaved with the other
 * writers', so they never collide), simulated command by command, with the events and metadata the
 * command handler would write for each command.
 */
class Writer {
  readonly #store: EventStore
  readonly #index: number
  readonly #writers: number
  readonly #random: () => number
  readonly #orgs: OrgSim[] = []
  readonly #clients: ClientSim[] = []
  readonly #counts: TypeCounts
  readonly #validate: boolean
  readonly #nextIds = { org: 0, key: 0, client: 0, service: 0, location: 0, query: 0, capture: 0, item: 0, event: 0, command: 0 }
  #clock: number
  events = 0
  appends = 0

  constructor(store: EventStore, index: number, writers: number, counts: TypeCounts, validate: boolean) {
    this.#store = store
    this.#index = index
    this.#writers = writers
    this.#random = prng(0x5eed + index * 7919)
    this.#counts = counts
    this.#validate = validate
    this.#clock = BASE_TIME + index * 1000
  }

  /** Appends until this writer has written at least `events` events. */
  async writeUntil(events: number): Promise<void> {
    while (this.events < events) await this.#step()
  }

  /** Ids interleaved across writers: writer i of n takes i+1, i+1+n, i+1+2n, … */
  #id(kind: IdKind): number {
    return this.#nextIds[kind]++ * this.#writers + this.#index + 1
  }

  #pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#random() * list.length)]!
  }

  #uuid(counter: number): string {
    return `${(this.#index + 1).toString(16).padStart(8, '0')}-0000-4000-8000-${counter.toString(16).padStart(12, '0')}`
  }

  /** The metadata of one command; business time moves on by 5 to 120 seconds per command, per writer. */
  #command(orgId: number, actorKeyId: number): Record<string, unknown> {
    this.#clock += 5000 + Math.floor(this.#random() * 115_000)
    const correlation = this.#uuid(0x800000000000 + ++this.#nextIds.command)
    const metadata: EventMetadata = {
      org_id: orgId,
      actor: { kind: 'api_key', id: actorKeyId },
      correlation_id: correlation,
      causation_id: null,
      request_id: correlation,
      occurred_at: new Date(this.#clock).toISOString(),
      // Most types are at version 1; #event restamps an event whose type is at another.
      schema_version: 1,
    }
    return metadata as unknown as Record<string, unknown>
  }

  #event(draft: Draft, metadata: Record<string, unknown>): NewEvent {
    if (this.#validate) schemaOf(draft.type)!.parse(draft.data)
    this.#counts.set(draft.type, (this.#counts.get(draft.type) ?? 0) + 1)
    const version = currentSchemaVersion(draft.type)
    const stamped = metadata.schema_version === version ? metadata : { ...metadata, schema_version: version }
    return { id: this.#uuid(++this.#nextIds.event), type: draft.type, data: draft.data, metadata: stamped }
  }

  async #append(stream: string, events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return
    await this.#store.append(stream, events, 'any')
    this.events += events.length
    this.appends++
  }

  /** One command, one append (organizations, keys). */
  #single(stream: string, orgId: number, actorKeyId: number, draft: Draft): Promise<void> {
    return this.#append(stream, [this.#event(draft, this.#command(orgId, actorKeyId))])
  }

  async #step(): Promise<void> {
    const org = this.#orgs[this.#orgs.length - 1]
    if (!org || org.clients >= org.targetClients) return this.#createOrganization()
    const r = this.#random()
    // New clients keep arriving while the existing ones are worked on.
    if (r < 0.25 || this.#clients.length === 0) return this.#addClient(org)
    if (r < 0.27) return this.#createKey(this.#pick(this.#orgs))
    if (r < 0.28) return this.#revokeKey(this.#pick(this.#orgs))
    // A month of AI Visibility captures for one client: about a fifth of the log's events.
    if (r < 0.36) return this.#aeoRound(this.#pick(this.#clients))
    return this.#session(this.#pick(this.#clients))
  }

  async #createOrganization(): Promise<void> {
    const id = this.#id('org')
    const org: OrgSim = { id, keyIds: [], clients: 0, targetClients: 20 + Math.floor(this.#random() * 100) }
    this.#orgs.push(org)
    await this.#single(organizationStream(id), id, 1, { type: 'OrganizationCreated', data: { org_id: id, name: `Agency ${id}` } })
    await this.#createKey(org)
    await this.#createKey(org)
  }

  async #createKey(org: OrgSim): Promise<void> {
    const keyId = this.#id('key')
    const actor = org.keyIds[0] ?? 1
    org.keyIds.push(keyId)
    const hash = createHash('sha256').update(`bench-key-${keyId}`).digest('hex')
    await this.#single(apiKeyStream(keyId), org.id, actor, {
      type: 'ApiKeyCreated',
      data: {
        key_id: keyId,
        org_id: org.id,
        name: `${this.#pick(['ops', 'agent', 'reporting', 'zapier'])} key ${keyId}`,
        notes: this.#random() < 0.3 ? 'rotated yearly' : '',
        scopes: this.#random() < 0.7 ? ['read', 'write', 'jobs'] : ['read'],
        key_hash: hash,
        key_hint: `rrk_${hash.slice(0, 6)}`,
        created_by_user_id: null,
      },
    })
  }

  async #revokeKey(org: OrgSim): Promise<void> {
    // The first key is the organization's main key (the actor of its commands); it stays.
    if (org.keyIds.length < 3) return this.#createKey(org)
    const keyId = org.keyIds.splice(1 + Math.floor(this.#random() * (org.keyIds.length - 1)), 1)[0]!
    await this.#single(apiKeyStream(keyId), org.id, org.keyIds[0]!, { type: 'ApiKeyRevoked', data: { key_id: keyId } })
  }

  #actor(client: ClientSim): number {
    return this.#orgs.find((o) => o.id === client.orgId)?.keyIds[0] ?? 1
  }

  /** add_client: the slug's reservation, then the client with its services, locations and settings in one append. */
  async #addClient(org: OrgSim): Promise<void> {
    const id = this.#id('client')
    org.clients++
    const slug = this.#random() < 0.8 ? `client-${id}` : ''
    const status: ClientStatus = this.#random() < 0.85 ? 'active' : this.#pick(['paused', 'staging'] as const)
    const websiteUrl = `https://client-${id}.example.com`
    const client: ClientSim = {
      id,
      orgId: org.id,
      name: `Client ${id}`,
      websiteUrl,
      slug,
      status,
      services: [],
      locations: [],
      locationNames: 0,
    }
    this.#clients.push(client)
    const metadata = this.#command(org.id, org.keyIds[0] ?? 1)
    if (slug)
      await this.#append(clientSlugStream(org.id, slug), [
        this.#event({ type: 'ClientSlugClaimed', data: { org_id: org.id, slug, client_id: id } }, metadata),
      ])
    const drafts: Draft[] = [
      { type: 'ClientAdded', data: { client_id: id, org_id: org.id, name: client.name, website_url: websiteUrl, slug, status } },
    ]
    for (let i = 1 + Math.floor(this.#random() * 3); i > 0; i--) drafts.push(this.#serviceDraft(client))
    for (let i = Math.floor(this.#random() * 3); i > 0; i--) drafts.push(this.#locationDraft(client))
    for (let i = Math.floor(this.#random() * 3); i > 0; i--) drafts.push(this.#settingDraft(client))
    await this.#append(
      clientStream(id),
      drafts.map((d) => this.#event(d, metadata)),
    )
  }

  #serviceDraft(client: ClientSim): Draft {
    const n = client.services.length
    const name = n < SERVICES.length ? SERVICES[(client.id + n) % SERVICES.length]! : `Service ${n + 1}`
    client.services.push(name)
    const description = this.#random() < 0.4 ? `${name} for homes and businesses, same-day where possible` : ''
    return { type: 'ClientServiceAdded', data: { client_id: client.id, service_id: this.#id('service'), name, description } }
  }

  #locationDraft(client: ClientSim): Draft {
    const n = client.locationNames++
    const [city, state] = CITIES[(client.id + n) % CITIES.length]!
    const suffix = n < CITIES.length ? '' : ` ${Math.floor(n / CITIES.length) + 1}`
    const locationId = this.#id('location')
    const name = `${city}${suffix}, ${state}, US`
    client.locations.push({ id: locationId, name })
    return {
      type: 'ClientLocationAdded',
      data: { client_id: client.id, location_id: locationId, name, city: `${city}${suffix}`, state, country: 'US' },
    }
  }

  #settingDraft(client: ClientSim): Draft {
    const key = this.#pick(SETTING_KEYS)
    const words = 1 + Math.floor(this.#random() * (key === 'notes' ? 40 : 4))
    const value = key === 'attention_flag' && this.#random() < 0.5 ? '' : Array.from({ length: words }, () => this.#pick(WORDS)).join(' ')
    return { type: 'ClientSettingSet', data: { client_id: client.id, key, value } }
  }

  /**
   * One month of AI Visibility for a client (a deleted one gets an ordinary session instead: ingest refuses
   * it): its questions when it has none, then its captures, one command each.
   */
  async #aeoRound(client: ClientSim): Promise<void> {
    if (client.status === 'deleted') return this.#session(client)
    client.aeo ??= new AeoClientLog(this.#random, {
      query: () => this.#id('query'),
      capture: () => this.#id('capture'),
      item: () => this.#id('item'),
    })
    const commands = client.aeo.round({
      id: client.id,
      name: client.name,
      websiteUrl: client.websiteUrl,
      services: client.services,
      locations: client.locations.map((l) => l.name),
    })
    for (const command of commands) await this.#appendCommand(client, command)
  }

  async #appendCommand(client: ClientSim, command: CommandAppends): Promise<void> {
    const metadata = this.#command(client.orgId, this.#actor(client))
    for (const { stream, drafts } of command)
      await this.#append(
        stream,
        drafts.map((d) => this.#event(d, metadata)),
      )
  }

  /**
   * An agent working on one client for a while: 1 to 24 commands (about 7 on average), mostly settings,
   * then services and locations added, locations cleared, renames and URL or slug changes, pauses, deletes
   * and restores.
   */
  async #session(client: ClientSim): Promise<void> {
    const session: Session = { client, claims: [], events: [], releases: [], slugChanged: false }
    const commands = Math.min(24, 1 + Math.floor(-Math.log(1 - this.#random()) * 6))
    for (let i = 0; i < commands; i++) this.#followUp(session)
    for (const claim of session.claims) await this.#append(clientSlugStream(client.orgId, claim.data.slug), [claim])
    await this.#append(clientStream(client.id), session.events)
    for (const release of session.releases) await this.#append(clientSlugStream(client.orgId, release.data.slug), [release])
  }

  #followUp(session: Session): void {
    const client = session.client
    const metadata = this.#command(client.orgId, this.#actor(client))
    const add = (draft: Draft): void => {
      session.events.push(this.#event(draft, metadata))
    }
    const slugEvent = (type: 'ClientSlugClaimed' | 'ClientSlugReleased', slug: string) =>
      this.#event({ type, data: { org_id: client.orgId, slug, client_id: client.id } }, metadata) as SlugEvent
    const canChangeSlug = !session.slugChanged
    if (client.status === 'deleted') {
      if (!canChangeSlug) return add(this.#statusDraft(client, 'deleted'))
      // Restoring takes the slug back first.
      session.slugChanged = true
      if (client.slug) session.claims.push(slugEvent('ClientSlugClaimed', client.slug))
      return add(this.#statusDraft(client, 'active'))
    }
    const r = this.#random()
    if (r < 0.6) return add(this.#settingDraft(client))
    if (r < 0.66) return add(this.#serviceDraft(client))
    if (r < 0.71) return add(this.#locationDraft(client))
    if (r < 0.74 && client.locations.length > 0) {
      return add({
        type: 'ClientLocationsRemoved',
        data: { client_id: client.id, location_ids: client.locations.splice(0).map((l) => l.id) },
      })
    }
    if (r < 0.8) {
      client.name = `${client.name.split(' (')[0]} (${this.#pick(WORDS)})`
      return add({ type: 'ClientUpdated', data: { client_id: client.id, name: client.name } })
    }
    if (r < 0.84) {
      client.websiteUrl = `https://www.client-${client.id}-${this.#pick(WORDS)}.example.com`
      return add({ type: 'ClientUpdated', data: { client_id: client.id, website_url: client.websiteUrl } })
    }
    if (!canChangeSlug) return add(this.#settingDraft(client))
    session.slugChanged = true
    if (r < 0.88) {
      // A new slug: claim it, take it, release the old one (as updateClient does).
      const old = client.slug
      const slug = `client-${client.id}-${this.#pick(WORDS)}-${this.#nextIds.command}`
      session.claims.push(slugEvent('ClientSlugClaimed', slug))
      add({ type: 'ClientUpdated', data: { client_id: client.id, slug } })
      client.slug = slug
      if (old) session.releases.push(slugEvent('ClientSlugReleased', old))
      return
    }
    const to: ClientStatus =
      client.status === 'active' ? (this.#random() < 0.3 ? 'deleted' : this.#pick(['paused', 'staging'] as const)) : 'active'
    add(this.#statusDraft(client, to))
    if (to === 'deleted' && client.slug) session.releases.push(slugEvent('ClientSlugReleased', client.slug))
  }

  /** A status change (a repeated status is no change: the handler would write nothing, so neither do we). */
  #statusDraft(client: ClientSim, to: ClientStatus): Draft {
    const from = client.status
    if (from === to) return this.#settingDraft(client)
    client.status = to
    return { type: 'ClientStatusChanged', data: { client_id: client.id, from, to } }
  }
}

export interface LogWriterOptions {
  /** Concurrent writers (each appends one command at a time). */
  readonly writers: number
  /** Check every event against its zod schema before appending (as the command handler does). */
  readonly validate: boolean
}

/**
 * A realistic, deterministic log written straight into the event store: organizations with API keys (some
 * revoked), clients with services, locations and settings, then follow-ups interleaved across clients
 * (settings most often, services and locations added, locations removed, renames, URL and slug changes,
 * pauses, deletes and restores, each with its slug reservation events), and monthly AI Visibility rounds
 * per client (its question set once, then each answer captured, analyzed and tracked: support/aeo-log.ts,
 * about a fifth of the events). One append per stream a command writes, with the
 * events and metadata the command handler would write; `writers` writers append concurrently, each on its
 * own organizations. Call `writeUntil` again to extend the same log.
 */
export class RealisticLogWriter {
  readonly #writers: Writer[]
  readonly counts: TypeCounts = new Map()

  constructor(store: EventStore, options: LogWriterOptions) {
    this.#writers = Array.from({ length: options.writers }, (_, i) => new Writer(store, i, options.writers, this.counts, options.validate))
  }

  get events(): number {
    return this.#writers.reduce((sum, w) => sum + w.events, 0)
  }

  get appends(): number {
    return this.#writers.reduce((sum, w) => sum + w.appends, 0)
  }

  /** Appends until the log holds at least `total` events from this writer (a few more: whole commands). */
  async writeUntil(total: number): Promise<void> {
    const share = Math.ceil(total / this.#writers.length)
    await Promise.all(this.#writers.map((w) => w.writeUntil(share)))
  }
}
