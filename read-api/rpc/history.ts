import { z } from 'zod'
import type { RecordedEvent } from '../../commands/event-store/port.js'
import { clientStream } from '../../domain/clients/client.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { isHiddenField } from '../../domain/shared/hidden-fields.js'
import { Id } from '../../domain/shared/values.js'
import { requireOrgId } from '../caller.js'
import type { StreamHistory } from '../platform/rpc-ports.js'
import { rpc, type Page } from '../registry.js'
import { ClientId, UserId } from './ids.js'

const domain = 'history'

/** Entity kinds whose history is a stream of their own (`<kind>-<id>`). */
const ENTITY_TYPES = ['organization', 'client', 'api_key'] as const

const HistoryEntry = z.object({
  event_id: z.string(),
  type: z.string(),
  revision: z.number().int(),
  occurred_at: z.string(),
  actor: z.object({ kind: z.string(), id: z.union([z.string(), z.number(), z.null()]) }),
  data: z.record(z.string(), z.unknown()),
})

type Entry = z.infer<typeof HistoryEntry>

/**
 * An event as history shows it: its data as recorded (at the schema_version it was written with, passed on
 * without being read), less the hidden fields. Every appended event names its time and actor; one written
 * without them by a tool shows when it was recorded, by the system.
 */
function toEntry(event: RecordedEvent): Entry {
  const data = Object.fromEntries(Object.entries(event.data ?? {}).filter(([key]) => !isHiddenField(key)))
  return {
    event_id: event.id,
    type: event.type,
    revision: Number(event.revision),
    occurred_at: event.metadata.occurred_at ?? event.recordedAt.toISOString(),
    actor: event.metadata.actor ?? { kind: 'system', id: null },
    data,
  }
}

/**
 * A stream's events, newest first, if the caller may see the entity: its organization is the one in the
 * stream's first event. Missing and foreign entities answer alike.
 */
async function visibleHistory(
  history: StreamHistory,
  stream: string,
  orgId: number | null,
  notFound: () => Error,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = []
  for await (const event of history.readStream(stream)) events.push(event)
  if (events.length === 0) throw notFound()
  if (orgId !== null && events[0]!.metadata.org_id !== orgId) throw notFound()
  return events.reverse()
}

/** Which part of a client an event is about, for get_client_change_history's entity_type filter. */
function clientEntityOf(type: string): 'client' | 'service' | 'location' | 'setting' {
  if (type.startsWith('ClientService')) return 'service'
  if (type.startsWith('ClientLocation')) return 'location'
  if (type.startsWith('ClientSetting')) return 'setting'
  return 'client'
}

/** The page's slice of a list built in memory (the log's history of one stream is bounded). */
function pageSlice<T>(items: readonly T[], page: Page | null): T[] {
  return page ? items.slice(page.offset, page.offset + page.limit) : [...items]
}

export const historyRpcs = [
  rpc({
    name: 'get_entity_history',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "An entity's full history from the event log, newest first: every change with its actor and time.",
    example: { params: { entity_type: 'client', entity_id: 34 } },
    params: z.strictObject({
      entity_type: z.enum(ENTITY_TYPES).describe('The kind of entity: organization, client or api_key'),
      entity_id: Id.describe('Its id (an organization, client or API key id)'),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 50 },
    result: z.array(HistoryEntry),
    async handler(ctx) {
      const { entity_type, entity_id } = ctx.params
      const events = await visibleHistory(
        ctx.history,
        `${entity_type}-${entity_id}`,
        ctx.orgId,
        () => new NotFoundError(entity_type, entity_id),
      )
      return pageSlice(events, ctx.page).map(toEntry)
    },
  }),
  rpc({
    name: 'get_client_change_history',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's changes (the client, its services, locations and settings), newest first; entity_type narrows to one part.",
    example: { params: { client_id: 34, entity_type: 'setting' } },
    params: z.strictObject({
      client_id: ClientId,
      entity_type: z
        .enum(['client', 'service', 'location', 'setting'])
        .optional()
        .describe('Only changes of this part: client, service, location or setting (default all)'),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 50 },
    result: z.array(HistoryEntry.extend({ entity_type: z.string() })),
    async handler(ctx) {
      const { client_id, entity_type } = ctx.params
      const events = await visibleHistory(ctx.history, clientStream(client_id), ctx.orgId, () => new NotFoundError('client', client_id))
      const entries = events
        .map((e) => ({ ...toEntry(e), entity_type: clientEntityOf(e.type) }))
        .filter((e) => entity_type === undefined || e.entity_type === entity_type)
      return pageSlice(entries, ctx.page)
    },
  }),
  rpc({
    name: 'get_org_activity',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The organization's recent activity from the log, newest first; filter by user_id or client_id.",
    example: { params: { days: 7, client_id: 34 } },
    params: z.strictObject({
      days: z.number().int().min(1).max(3660).default(30).describe('How many days back, 1 to 3660 (default 30)'),
      user_id: UserId.optional(),
      client_id: ClientId.optional(),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 100 },
    result: z.array(
      z.object({
        event_id: z.string(),
        type: z.string(),
        stream: z.string(),
        client_id: ClientId.nullable(),
        actor: z.object({ kind: z.string(), id: z.string().nullable() }),
        occurred_at: z.string(),
      }),
    ),
    async handler(ctx) {
      const { days, user_id, client_id } = ctx.params
      const { limit, offset } = ctx.page ?? { limit: 100, offset: 0 }
      const since = new Date(ctx.write.clock().getTime() - days * 86_400_000)
      let query = ctx.read
        .selectFrom('org_activity')
        .select(['event_id', 'event_type', 'stream', 'client_id', 'actor_kind', 'actor_id', 'occurred_at'])
        .where('org_id', '=', requireOrgId(ctx.orgId))
        .where('occurred_at', '>=', since)
      if (user_id !== undefined) query = query.where('actor_kind', '=', 'user').where('actor_id', '=', String(user_id))
      if (client_id !== undefined) query = query.where('client_id', '=', client_id)
      const rows = await query.orderBy('occurred_at', 'desc').orderBy('stream_revision', 'desc').limit(limit).offset(offset).execute()
      return rows.map((r) => ({
        event_id: r.event_id,
        type: r.event_type,
        stream: r.stream,
        client_id: r.client_id,
        actor: { kind: r.actor_kind, id: r.actor_id },
        occurred_at: r.occurred_at.toISOString(),
      }))
    },
  }),
]
