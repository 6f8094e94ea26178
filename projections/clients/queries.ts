import { NotFoundError } from '../../domain/shared/errors.js'
import { CompiledQuery, sql, type SqlBool } from 'kysely'
import { namedStatement } from '../../commands/named-statements.js'
import type { ClientsTable, ReadDb } from '../tables.js'
import type { Selectable } from 'kysely'
import type { ClientStatus } from '../../domain/clients/values.js'

export type ClientRow = Selectable<ClientsTable>

/** The client as the API shows it (get_client, get_all_clients). */
export interface ClientView {
  id: number
  org_id: number
  name: string
  website_url: string
  slug: string
  status: ClientStatus
  services: string[]
  locations: string[]
  created_at: string
  updated_at: string
  deactivated_at: string | null
  deleted_at: string | null
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

/** A client visible in `orgId` (null: any organization, for platform callers). */
export async function findClient(db: ReadDb, orgId: number | null, clientId: number): Promise<ClientRow | undefined> {
  let query = db.selectFrom('clients').selectAll().where('id', '=', clientId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return query.executeTakeFirst()
}

export async function clientViews(db: ReadDb, rows: readonly ClientRow[]): Promise<ClientView[]> {
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const [services, locations] = await Promise.all([
    db.selectFrom('client_services').select(['client_id', 'name']).where('client_id', 'in', ids).orderBy('id').execute(),
    db
      .selectFrom('client_locations')
      .select(['client_id', 'name'])
      .where('client_id', 'in', ids)
      .where('removed_at', 'is', null)
      .orderBy('id')
      .execute(),
  ])
  const group = (list: { client_id: number; name: string }[]) => {
    const map = new Map<number, string[]>()
    for (const item of list) map.set(item.client_id, [...(map.get(item.client_id) ?? []), item.name])
    return map
  }
  const servicesBy = group(services)
  const locationsBy = group(locations)
  return rows.map((r) => toView(r, servicesBy.get(r.id) ?? [], locationsBy.get(r.id) ?? []))
}

function toView(r: ClientRow, services: string[], locations: string[]): ClientView {
  return {
    id: r.id,
    org_id: r.org_id,
    name: r.name,
    website_url: r.website_url,
    slug: r.slug,
    status: r.status as ClientStatus,
    services,
    locations,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    deactivated_at: iso(r.deactivated_at),
    deleted_at: iso(r.deleted_at),
  }
}

/**
 * visibleClientViews' statement, built once per read handle (the handle names the schema) and run as a named
 * statement (commands/named-statements.ts), so neither kysely nor PostgreSQL parses it again per call.
 * Parameters: $1 the ids (bigint[]), $2 and $3 the organization (null: any). The columns are named, not
 * `c.*`, as a named statement needs.
 */
const viewStatements = new WeakMap<ReadDb, string>()
function viewsStatement(db: ReadDb): string {
  let text = viewStatements.get(db)
  if (text === undefined) {
    const none: number[] = []
    const compiled = db
      .selectFrom('clients as c')
      .select([
        'c.id',
        'c.org_id',
        'c.name',
        'c.website_url',
        'c.slug',
        'c.status',
        'c.created_at',
        'c.updated_at',
        'c.deactivated_at',
        'c.deleted_at',
      ])
      .select((eb) => [
        eb
          .selectFrom('client_services as s')
          .select(sql<string[] | null>`array_agg(s.name order by s.id)`.as('names'))
          .whereRef('s.client_id', '=', 'c.id')
          .as('service_names'),
        eb
          .selectFrom('client_locations as l')
          .select(sql<string[] | null>`array_agg(l.name order by l.id)`.as('names'))
          .whereRef('l.client_id', '=', 'c.id')
          .where('l.removed_at', 'is', null)
          .as('location_names'),
      ])
      .where(sql<SqlBool>`c.id = any(${none}::bigint[]) and (${null}::bigint is null or c.org_id = ${null}::bigint)`)
      .compile()
    if (compiled.parameters.length !== 3) throw new Error(`visibleClientViews: expected 3 parameters in ${compiled.sql}`)
    text = namedStatement(compiled.sql)
    viewStatements.set(db, text)
  }
  return text
}

/**
 * The clients among `clientIds` visible in `orgId` (null: any organization), each as clientViews shows it
 * (row, service names, current location names), in one statement: a read of one or many clients is one round
 * trip. Undefined for each id the caller may not see (visibleClient's not-found), in the order asked.
 * read-api/rpc/clients.ts gathers concurrent get_client reads into one call.
 */
export async function visibleClientViews(
  db: ReadDb,
  orgId: number | null,
  clientIds: readonly number[],
): Promise<(ClientView | undefined)[]> {
  const unique = [...new Set(clientIds)]
  const { rows } = await db.executeQuery(
    CompiledQuery.raw(viewsStatement(db), [unique, orgId, orgId]) as CompiledQuery<
      ClientRow & { service_names: string[] | null; location_names: string[] | null }
    >,
  )
  const views = new Map<number, ClientView>()
  for (const { service_names, location_names, ...client } of rows)
    views.set(client.id, toView(client, service_names ?? [], location_names ?? []))
  return clientIds.map((id) => views.get(id))
}

export interface ClientListFilter {
  readonly activeOnly: boolean
  readonly includeDeleted: boolean
  readonly includePaused: boolean
  readonly includeStaging: boolean
}

/** The statuses a list includes: deleted clients only when asked; active_only narrows to active. */
export function statusesFor(filter: ClientListFilter): string[] {
  if (filter.activeOnly) return ['active']
  const statuses = ['active']
  if (filter.includePaused) statuses.push('paused')
  if (filter.includeStaging) statuses.push('staging')
  if (filter.includeDeleted) statuses.push('deleted')
  return statuses
}

/** The organization's clients with these statuses in id order; only the page asked for when one is given. */
export async function listClients(
  db: ReadDb,
  orgId: number,
  statuses: readonly string[],
  page?: { limit: number; offset: number },
): Promise<ClientRow[]> {
  if (statuses.length === 0) return []
  let query = db
    .selectFrom('clients')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('status', 'in', [...statuses])
    .orderBy('id')
  if (page) query = query.limit(page.limit).offset(page.offset)
  return query.execute()
}

export async function countActiveClients(db: ReadDb, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('org_id', '=', orgId)
    .where('status', '=', 'active')
    .executeTakeFirst()
  return row?.n ?? 0
}

/** Another non-deleted client of the organization that already uses the slug, if any. */
export async function clientWithSlug(db: ReadDb, orgId: number, slug: string, exceptId?: number): Promise<number | null> {
  let query = db.selectFrom('clients').select('id').where('org_id', '=', orgId).where('slug', '=', slug).where('status', '<>', 'deleted')
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId)
  const row = await query.orderBy('id').executeTakeFirst()
  return row?.id ?? null
}

export async function clientSettings(db: ReadDb, clientId: number): Promise<Record<string, string>> {
  const rows = await db.selectFrom('client_settings').select(['key', 'value']).where('client_id', '=', clientId).orderBy('key').execute()
  return Object.fromEntries(rows.map((r) => [r.key, r.value]))
}

export async function attentionFlags(db: ReadDb, orgId: number) {
  const rows = await db
    .selectFrom('client_settings as s')
    .innerJoin('clients as c', 'c.id', 's.client_id')
    .select(['c.id as client_id', 'c.name as client_name', 's.value as attention_flag', 's.updated_at'])
    .where('s.org_id', '=', orgId)
    .where('s.key', '=', 'attention_flag')
    .where('s.value', '<>', '')
    .where('c.status', '<>', 'deleted')
    .orderBy('c.id')
    .execute()
  return rows.map((r) => ({ ...r, updated_at: r.updated_at.toISOString() }))
}

export async function servicesForClient(db: ReadDb, clientId: number) {
  const rows = await db
    .selectFrom('client_services')
    .select(['id', 'client_id', 'name', 'description', 'created_at'])
    .where('client_id', '=', clientId)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }))
}

export async function locationsForClient(db: ReadDb, clientId: number) {
  const rows = await db
    .selectFrom('client_locations')
    .select(['id', 'client_id', 'name', 'city', 'state', 'country', 'created_at'])
    .where('client_id', '=', clientId)
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }))
}

/** The client if the caller may see it; otherwise the same not-found whether it is missing or foreign. */
export async function visibleClient(db: ReadDb, orgId: number | null, clientId: number): Promise<ClientRow> {
  const row = await findClient(db, orgId, clientId)
  if (!row) throw new NotFoundError('client', clientId)
  return row
}

/** One event of a client's activity feed, as get_client_activity shows it (the shape of get_org_activity's entries). */
export interface ClientActivityView {
  event_id: string
  type: string
  stream: string
  client_id: number | null
  actor: { kind: string; id: string | null }
  occurred_at: string
}

/** The client's recent activity from org_activity (events naming the client), newest first. */
export async function clientActivity(
  db: ReadDb,
  client: Pick<ClientRow, 'id' | 'org_id'>,
  page: { limit: number; offset: number },
): Promise<ClientActivityView[]> {
  const rows = await db
    .selectFrom('org_activity')
    .select(['event_id', 'event_type', 'stream', 'client_id', 'actor_kind', 'actor_id', 'occurred_at'])
    .where('org_id', '=', client.org_id)
    .where('client_id', '=', client.id)
    .orderBy('occurred_at', 'desc')
    .orderBy('stream_revision', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map((r) => ({
    event_id: r.event_id,
    type: r.event_type,
    stream: r.stream,
    client_id: r.client_id,
    actor: { kind: r.actor_kind, id: r.actor_id },
    occurred_at: r.occurred_at.toISOString(),
  }))
}

/** The name an agency shows its clients: the organization's brand name, else its name. */
export async function agencyNameOf(db: ReadDb, orgId: number): Promise<string> {
  const row = await db.selectFrom('organizations').select(['name', 'brand_name']).where('id', '=', orgId).executeTakeFirst()
  if (!row) throw new NotFoundError('organization', orgId)
  return row.brand_name || row.name
}

/**
 * When the client's data was last captured: the latest finish of its completed jobs (keyword generation,
 * content work…), completed rank checks and completed Search Console captures; null when none. Failed and
 * cancelled work captured nothing.
 */
export async function lastAuditAt(db: ReadDb, clientId: number): Promise<Date | null> {
  const rows = await db
    .selectFrom('jobs')
    .select(sql<Date | null>`max(finished_at)`.as('at'))
    .where('client_id', '=', clientId)
    .where('status', '=', 'done')
    .unionAll(
      db
        .selectFrom('rank_checks')
        .select(sql<Date | null>`max(finished_at)`.as('at'))
        .where('client_id', '=', clientId)
        .where('status', '=', 'completed'),
    )
    .unionAll(
      db
        .selectFrom('gsc_captures')
        .select(sql<Date | null>`max(finished_at)`.as('at'))
        .where('client_id', '=', clientId)
        .where('status', '=', 'completed'),
    )
    .execute()
  const times = rows.flatMap((r) => (r.at === null ? [] : [r.at.getTime()]))
  return times.length === 0 ? null : new Date(Math.max(...times))
}
