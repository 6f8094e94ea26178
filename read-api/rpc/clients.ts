import { z } from 'zod'
import {
  addClient,
  addLocation,
  addService,
  loadClientAsOf,
  removeLocations,
  setClientSetting,
  setClientStatus,
  updateClient,
} from '../../commands/clients.js'
import type { ClientState } from '../../domain/clients/client.js'
import {
  ClientStatus,
  SettingKey,
  SettingValue,
  Settings,
  Slug,
  WebsiteUrl,
  locationDisplayName,
  parseLocationName,
  type StatusTimes,
} from '../../domain/clients/values.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { Id, Name } from '../../domain/shared/values.js'
import {
  agencyNameOf,
  attentionFlags,
  clientActivity,
  clientSettings,
  clientViews,
  clientWithSlug,
  countActiveClients,
  lastAuditAt,
  listClients,
  locationsForClient,
  servicesForClient,
  statusesFor,
  visibleClient,
  visibleClientViews,
  type ClientRow,
  type ClientView,
} from '../../projections/clients/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import { requireOrgId } from '../caller.js'
import { Coalescer } from '../platform/coalesce.js'
import { rpc } from '../registry.js'
import { ClientId } from './ids.js'

const domain = 'clients'

/** How long add_client waits for the read models to show an existing client it answers (bounded, like read-your-writes). */
const EXISTING_CLIENT_WAIT_MS = 5_000

const ServiceInput = z
  .union([
    Name.transform((name) => ({ name, description: '' })),
    z.strictObject({
      name: Name.describe('The service, e.g. "Drain cleaning"'),
      description: z.string().max(2000).default('').describe('What it covers, at most 2000 characters (default empty)'),
    }),
  ])
  .describe('A service: its name, or {name, description}')

const LocationFields = {
  name: z.string().trim().max(200).optional().describe('The display name, e.g. "Austin, TX" (default: built from city, state and country)'),
  city: z.string().trim().max(200).default('').describe('The city (default empty)'),
  state: z.string().trim().max(100).default('').describe('The state or region, e.g. TX (default empty)'),
  country: z.string().trim().max(100).default('').describe('The country (default empty)'),
}

type LocationParts = { name?: string | undefined; city: string; state: string; country: string }

/** The display name is the given name, or "City, ST, Country" from the parts; one of them is required. */
function withDisplayName(l: LocationParts, ctx: z.RefinementCtx) {
  // A name alone ("Austin, TX") is read into its parts, as a plain string is.
  if (l.name && !l.city && !l.state && !l.country) return parseLocationName(l.name)
  const name = locationDisplayName(l)
  if (!name) {
    ctx.addIssue({ code: 'custom', message: 'a location needs a name or a city/state/country' })
    return z.NEVER
  }
  return { name, city: l.city, state: l.state, country: l.country }
}

/** A location is a display name ("Austin, TX") or its parts. */
const LocationInput = z
  .union([Name.transform(parseLocationName), z.strictObject(LocationFields)])
  .transform(withDisplayName)
  .describe('A location: a display name ("Austin, TX"), or {name?, city, state, country}')

const ClientInput = z
  .strictObject({
    name: Name.describe("The client's name, 1 to 200 characters; the get-or-create identity (case- and space-insensitive)"),
    website_url: WebsiteUrl,
    services: z.array(ServiceInput).max(200).default([]).describe('Its services, at most 200 (default none)'),
    locations: z.array(LocationInput).max(500).default([]).describe('Its locations, at most 500 (default none)'),
    slug: Slug.optional().describe(
      'A URL slug (lower-case letters, digits, single hyphens); default derived from the name ("Acme Plumbing" → acme-plumbing, then -2, -3 … while taken); "" for none',
    ),
    status: ClientStatus.default('active'),
    settings: Settings.default({}).describe('Settings as an object of key to text value (default none)'),
  })
  .describe('The client to create')

const ClientViewSchema = z.object({
  id: Id,
  org_id: Id,
  name: z.string(),
  website_url: z.string(),
  slug: z.string(),
  status: ClientStatus,
  services: z.array(z.string()),
  locations: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  deactivated_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
  as_of: z.string().optional(),
})

const ServiceView = z.object({ id: Id, client_id: ClientId, name: z.string(), description: z.string(), created_at: z.string() })
const LocationView = z.object({
  id: Id,
  client_id: ClientId,
  name: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  created_at: z.string(),
})

/**
 * get_client's read. Agents read clients many at a time, and each statement costs far more (a round trip,
 * parse and plan on both sides) than the index lookup it does: requests that arrive while a read of their
 * organization runs share the next one (read-api/platform/coalesce.ts). Every answer still comes from a
 * statement that started after its request arrived, so a write the caller saw answered is always shown.
 */
const viewReads = new WeakMap<ReadDb, Coalescer<number | null, number, ClientView | undefined>>()
async function viewOf(db: ReadDb, orgId: number | null, clientId: number): Promise<ClientView> {
  let coalescer = viewReads.get(db)
  if (!coalescer) {
    coalescer = new Coalescer((org, ids) => visibleClientViews(db, org, ids))
    viewReads.set(db, coalescer)
  }
  const view = await coalescer.submit(orgId, clientId)
  if (!view) throw new NotFoundError('client', clientId)
  return view
}

/** The point-in-time view, folded from the client's stream; same shape as the live one. */
function asOfView(
  state: ClientState,
  folded: { createdAt: string; updatedAt: string; times: StatusTimes },
  asOf: string,
): ClientView & { as_of: string } {
  return {
    id: state.id,
    org_id: state.orgId,
    name: state.name,
    website_url: state.websiteUrl,
    slug: state.slug,
    status: state.status,
    services: state.services.map((s) => s.name),
    locations: state.locations.map((l) => l.name),
    created_at: folded.createdAt,
    updated_at: folded.updatedAt,
    deactivated_at: folded.times.deactivatedAt,
    deleted_at: folded.times.deletedAt,
    as_of: asOf,
  }
}

/** A read about one client, by client_id: the client if the caller may see it, else the same not-found. */
function clientRead<TResult extends z.ZodType>(
  name: string,
  summary: string,
  result: TResult,
  read: (db: ReadDb, client: ClientRow) => Promise<z.infer<TResult>>,
  exampleResult?: z.output<TResult>,
) {
  return rpc({
    name,
    domain,
    access: 'read',
    orgScoped: true,
    summary,
    example: { params: { client_id: 34 }, ...(exampleResult === undefined ? {} : { result: exampleResult }) },
    params: z.strictObject({ client_id: ClientId }),
    result,
    handler: async (ctx) => read(ctx.read, await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)),
  })
}

export const clientRpcs = [
  rpc({
    name: 'add_client',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Create a client (a tracked website) with its services, locations, slug, status and settings. Returns the new client id. Get-or-create by name (case- and space-insensitive) and website_url: when a live client of the organization has both, its id is answered and nothing changes. Without slug, one is derived from the name (lower-case ASCII and hyphens, -2, -3 … when taken in the organization); slug "" means none.',
    example: {
      params: {
        client: {
          name: 'Acme Plumbing',
          website_url: 'https://acmeplumbing.com',
          services: ['Drain cleaning', { name: 'Water heater repair', description: 'Tank and tankless' }],
          locations: ['Austin, TX', { city: 'Round Rock', state: 'TX', country: 'US' }],
          settings: { attention_flag: '' },
        },
      },
      result: 34,
    },
    params: z.strictObject({ client: ClientInput }),
    result: Id,
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const c = ctx.params.client
      const { clientId, existing, position } = await addClient(ctx.write, ctx.command, {
        orgId,
        name: c.name,
        websiteUrl: c.website_url,
        slug: c.slug,
        status: c.status,
        services: c.services,
        locations: c.locations,
        settings: c.settings,
      })
      // An existing client answered: this request appended nothing, so the edge's read-your-writes wait does
      // not cover it; wait here for the client's own events (a concurrent add_client may have just written them).
      if (existing && position) await ctx.waitForReadModels(position, EXISTING_CLIENT_WAIT_MS)
      return clientId
    },
  }),
  rpc({
    name: 'get_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One client with its services and locations. With as_of (ISO time), the client as it was then, folded from its history.',
    example: {
      params: { client_id: 34 },
      result: {
        id: 34,
        org_id: 12,
        name: 'Acme Plumbing',
        website_url: 'https://acmeplumbing.com',
        slug: 'acme-plumbing',
        status: 'active',
        services: ['Drain cleaning', 'Water heater repair'],
        locations: ['Austin, TX'],
        created_at: '2026-03-02T15:04:05.000Z',
        updated_at: '2026-03-09T10:20:00.000Z',
        deactivated_at: null,
        deleted_at: null,
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      as_of: z.iso
        .datetime({ offset: true })
        .optional()
        .describe('An ISO 8601 time with offset: the client as it was then (default: now, from the read models)'),
    }),
    result: ClientViewSchema,
    async handler(ctx) {
      const { client_id, as_of } = ctx.params
      if (as_of === undefined) return viewOf(ctx.read, ctx.orgId, client_id)
      const folded = await loadClientAsOf(ctx.write, client_id, new Date(as_of))
      // Not yet created at that time, or another organization's: the same not-found.
      if (!folded || (ctx.orgId !== null && folded.state.orgId !== ctx.orgId)) throw new NotFoundError('client', client_id)
      return asOfView(folded.state, folded, new Date(as_of).toISOString())
    },
  }),
  rpc({
    name: 'get_all_clients',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's clients: active, paused and staging by default; deleted only with include_deleted; active_only narrows to active.",
    example: { params: { include_staging: false } },
    params: z.strictObject({
      active_only: z.boolean().default(false).describe('Only active clients (default false)'),
      include_deleted: z.boolean().default(false).describe('Also list deleted clients (default false)'),
      include_paused: z.boolean().default(true).describe('List paused clients (default true)'),
      include_staging: z.boolean().default(true).describe('List staging clients (default true)'),
    }),
    // Agents page through long lists with limit/offset everywhere else; the default still answers every
    // client of an agency of ordinary size in one call, as before.
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    result: z.array(ClientViewSchema),
    async handler(ctx) {
      const p = ctx.params
      const statuses = statusesFor({
        activeOnly: p.active_only,
        includeDeleted: p.include_deleted,
        includePaused: p.include_paused,
        includeStaging: p.include_staging,
      })
      return clientViews(ctx.read, await listClients(ctx.read, requireOrgId(ctx.orgId), statuses, ctx.page ?? undefined))
    },
  }),
  rpc({
    name: 'get_deleted_clients',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The organization's deleted clients.",
    example: { params: {}, result: [] },
    params: z.strictObject({}),
    result: z.array(ClientViewSchema),
    async handler(ctx) {
      return clientViews(ctx.read, await listClients(ctx.read, requireOrgId(ctx.orgId), ['deleted']))
    },
  }),
  rpc({
    name: 'count_active_clients',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'Clients with status active (paused, staging and deleted are not counted: the billable seats).',
    example: { params: {}, result: 7 },
    params: z.strictObject({}),
    result: z.number().int(),
    handler: async (ctx) => countActiveClients(ctx.read, requireOrgId(ctx.orgId)),
  }),
  clientRead('get_client_org_id', 'The organization id a client belongs to.', Id, async (_db, client) => client.org_id, 12),
  rpc({
    name: 'update_client',
    domain,
    access: 'write',
    orgScoped: true,
    summary: "Change a client's name, website_url or slug (only the fields given). Returns the client.",
    example: { params: { client_id: 34, website_url: 'https://www.acmeplumbing.com', slug: 'acme' } },
    params: z.strictObject({
      client_id: ClientId,
      name: Name.optional().describe('A new name, 1 to 200 characters'),
      website_url: WebsiteUrl.optional(),
      slug: Slug.optional(),
    }),
    result: ClientViewSchema,
    async handler(ctx) {
      const p = ctx.params
      const input: Parameters<typeof updateClient>[2] = { clientId: p.client_id, callerOrgId: ctx.orgId }
      if (p.name !== undefined) input.name = p.name
      if (p.website_url !== undefined) input.websiteUrl = p.website_url
      if (p.slug !== undefined) input.slug = p.slug
      await updateClient(ctx.write, ctx.command, input)
      await ctx.settle()
      return viewOf(ctx.read, ctx.orgId, p.client_id)
    },
  }),
  rpc({
    name: 'set_client_status',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Set a client active, paused, staging or deleted (a deleted client can be restored by setting it active).',
    example: { params: { client_id: 34, status: 'paused' } },
    params: z.strictObject({ client_id: ClientId, status: ClientStatus }),
    result: ClientViewSchema,
    async handler(ctx) {
      const { client_id, status } = ctx.params
      await setClientStatus(ctx.write, ctx.command, { clientId: client_id, status, callerOrgId: ctx.orgId })
      await ctx.settle()
      return viewOf(ctx.read, ctx.orgId, client_id)
    },
  }),
  clientRead(
    'get_all_client_settings',
    "A client's settings as an object of key to text value.",
    z.record(z.string(), z.string()),
    (db, client) => clientSettings(db, client.id),
  ),
  rpc({
    name: 'get_client_setting',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One setting of a client, or null when it was never set.',
    example: { params: { client_id: 34, key: 'attention_flag' }, result: 'Rankings dropped after the site move' },
    params: z.strictObject({ client_id: ClientId, key: SettingKey }),
    result: z.string().nullable(),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return (await clientSettings(ctx.read, ctx.params.client_id))[ctx.params.key] ?? null
    },
  }),
  rpc({
    name: 'set_client_setting',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Set one client setting (text). The setting attention_flag flags the client for attention; empty clears it.',
    example: { params: { client_id: 34, key: 'attention_flag', value: 'Rankings dropped after the site move' } },
    params: z.strictObject({ client_id: ClientId, key: SettingKey, value: SettingValue }),
    result: z.object({ client_id: ClientId, key: z.string(), value: z.string() }),
    async handler(ctx) {
      const { client_id, key, value } = ctx.params
      await setClientSetting(ctx.write, ctx.command, { clientId: client_id, key, value, callerOrgId: ctx.orgId })
      return { client_id, key, value }
    },
  }),
  rpc({
    name: 'get_attention_flags_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'Clients of the organization whose attention_flag setting is not empty, with the flag text.',
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(z.object({ client_id: ClientId, client_name: z.string(), attention_flag: z.string(), updated_at: z.string() })),
    handler: async (ctx) => attentionFlags(ctx.read, requireOrgId(ctx.orgId)),
  }),
  clientRead(
    'get_client_slug',
    "A client's URL slug (empty when it has none).",
    z.string(),
    async (_db, client) => client.slug,
    'acme-plumbing',
  ),
  rpc({
    name: 'get_client_id_by_slug',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The id of the non-deleted client with this slug in the organization, or null.',
    example: { params: { slug: 'acme-plumbing' }, result: 34 },
    params: z.strictObject({ slug: z.string().trim().min(1).max(100).describe('The slug to look up, e.g. acme-plumbing') }),
    result: Id.nullable(),
    handler: async (ctx) => clientWithSlug(ctx.read, requireOrgId(ctx.orgId), ctx.params.slug),
  }),
  rpc({
    name: 'get_all_client_slugs',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'Every non-deleted client of the organization that has a slug, as {client_id, slug}.',
    example: { params: {}, result: [{ client_id: 34, slug: 'acme-plumbing' }] },
    params: z.strictObject({}),
    result: z.array(z.object({ client_id: ClientId, slug: z.string() })),
    async handler(ctx) {
      return ctx.read
        .selectFrom('clients')
        .select(['id as client_id', 'slug'])
        .where('org_id', '=', requireOrgId(ctx.orgId))
        .where('slug', '<>', '')
        .where('status', '<>', 'deleted')
        .orderBy('id')
        .execute()
    },
  }),
  rpc({
    name: 'add_service',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Add a service to a client (get-or-create by name, case-insensitive). Returns the service id.',
    example: { params: { service: { client_id: 34, name: 'Sewer line repair', description: 'Trenchless and open-cut' } }, result: 88 },
    params: z.strictObject({
      service: z
        .strictObject({
          client_id: ClientId,
          name: Name.describe('The service, e.g. "Drain cleaning"; an existing name (case-insensitive) returns its id'),
          description: z.string().max(2000).default('').describe('What it covers, at most 2000 characters (default empty)'),
        })
        .describe('The service to add'),
    }),
    result: Id,
    async handler(ctx) {
      const s = ctx.params.service
      const { serviceId } = await addService(ctx.write, ctx.command, {
        clientId: s.client_id,
        name: s.name,
        description: s.description,
        callerOrgId: ctx.orgId,
      })
      return serviceId
    },
  }),
  rpc({
    name: 'add_location',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Add a location to a client: a name ("Austin, TX") or city/state/country (get-or-create by name). Returns the location id.',
    example: { params: { location: { client_id: 34, city: 'Georgetown', state: 'TX', country: 'US' } }, result: 120 },
    params: z.strictObject({
      location: z
        .strictObject({ client_id: ClientId, ...LocationFields })
        .transform((l, ctx) => ({ client_id: l.client_id, ...withDisplayName(l, ctx) }))
        .describe('The location to add: a name ("Austin, TX") or city, state and country'),
    }),
    result: Id,
    async handler(ctx) {
      const l = ctx.params.location
      const { locationId } = await addLocation(ctx.write, ctx.command, {
        clientId: l.client_id,
        name: l.name,
        city: l.city,
        state: l.state,
        country: l.country,
        callerOrgId: ctx.orgId,
      })
      return locationId
    },
  }),
  clientRead('get_services_for_client', "A client's services.", z.array(ServiceView), (db, client) => servicesForClient(db, client.id)),
  clientRead('get_locations_for_client', "A client's current locations.", z.array(LocationView), (db, client) =>
    locationsForClient(db, client.id),
  ),
  rpc({
    name: 'get_client_activity',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's recent activity from the log, newest first: every event that names the client (its record, keywords, pages, " +
      'ranks, captures, surveys…), with its actor and time. get_org_activity is the same feed for the whole organization.',
    example: {
      params: { client_id: 34 },
      result: [
        {
          event_id: '01956f3c-7a44-7c1e-9d0b-5c2f3e8a1b20',
          type: 'KeywordPageAssociated',
          stream: 'keyword_pages-34',
          client_id: 34,
          actor: { kind: 'user', id: '9' },
          occurred_at: '2026-03-09T10:20:00.000Z',
        },
        {
          event_id: '01956f3b-11d2-7a90-8c4e-2b7d9f6e0c13',
          type: 'KeywordAdded',
          stream: 'keywords-34',
          client_id: 34,
          actor: { kind: 'api_key', id: '21' },
          occurred_at: '2026-03-09T10:18:41.000Z',
        },
      ],
    },
    params: z.strictObject({ client_id: ClientId }),
    paginated: { maxLimit: 1000, defaultLimit: 50 },
    result: z.array(
      z.object({
        event_id: z.string().describe("The event's id in the log"),
        type: z.string().describe('The event type, e.g. KeywordAdded'),
        stream: z.string().describe('The stream it belongs to, e.g. keywords-34'),
        client_id: ClientId.nullable().describe('The client (always this one here)'),
        actor: z
          .object({
            kind: z.string().describe('user, api_key, oauth, system…'),
            id: z.string().nullable().describe('Which one of that kind (null for the system)'),
          })
          .describe('Who made the change'),
        occurred_at: z.string().describe('When it happened (ISO 8601)'),
      }),
    ),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return clientActivity(ctx.read, client, ctx.page!)
    },
  }),
  clientRead(
    'get_client_deactivated_at',
    'When the client stopped being active (paused, staging or deleted), as an ISO 8601 time; null while it is active.',
    z.string().nullable().describe('The time, or null for an active client'),
    async (_db, client) => (client.deactivated_at === null ? null : client.deactivated_at.toISOString()),
    '2026-04-30T17:00:00.000Z',
  ),
  clientRead(
    'get_agency_name_for_client',
    "The name of the agency the client belongs to, as the client should see it: the organization's brand name " +
      '(update_organization_branding), else its name.',
    z.string().describe('The brand name, else the organization name'),
    (db, client) => agencyNameOf(db, client.org_id),
    'Northwind Digital',
  ),
  clientRead(
    'get_last_audit_at',
    "When the client's data was last captured, as an ISO 8601 time: the latest finish of its completed jobs, rank checks and " +
      'Search Console captures; null when none (failed work captured nothing).',
    z.string().nullable().describe('The time, or null when nothing was captured yet'),
    async (db, client) => (await lastAuditAt(db, client.id))?.toISOString() ?? null,
    '2026-03-09T06:00:12.000Z',
  ),
  rpc({
    name: 'delete_locations_for_client',
    domain,
    access: 'write',
    orgScoped: true,
    summary: "Remove all of a client's locations. Returns how many were removed.",
    example: { params: { client_id: 34 }, result: { deleted: 2 } },
    params: z.strictObject({ client_id: ClientId }),
    result: z.object({ deleted: z.number().int() }),
    async handler(ctx) {
      const { removed } = await removeLocations(ctx.write, ctx.command, { clientId: ctx.params.client_id, callerOrgId: ctx.orgId })
      return { deleted: removed }
    },
  }),
]
