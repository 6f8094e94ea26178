import { z } from 'zod'
import type { RecordedEvent } from '../../../commands/event-store/port.js'
import { actionOf, type EntityAction, FILTERABLE_ACTIONS, typesWithActions } from '../../../domain/monitoring/entity-changes/actions.js'
import { entityOf, MAX_ENTITY_IDS } from '../../../domain/monitoring/entity-changes/entity.js'
import { fieldChanges, LOOKBACK_EVENTS, MAX_VALUE_CHARS } from '../../../domain/monitoring/entity-changes/field-changes.js'
import { eventSchemas } from '../../../domain/events.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { type EntityChangeRow, entityChangeRows } from '../../../projections/monitoring/entity-changes/queries.js'
import { requireOrgId } from '../../caller.js'
import type { StreamHistory } from '../../platform/rpc-ports.js'
import { type AnyRpc, type Page, rpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'monitoring'

/** The longest window get_entity_changes_between reads (a year and a day: any calendar year, leap or not). */
const MAX_RANGE_DAYS = 366
const DAY_MS = 86_400_000

const Day = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'expected a day as YYYY-MM-DD')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'not a calendar day',
  )

const Actions = z
  .array(z.enum(FILTERABLE_ACTIONS))
  .min(1)
  .max(FILTERABLE_ACTIONS.length)
  .optional()
  .describe(`Only changes with these actions (${FILTERABLE_ACTIONS.join(', ')}); default all`)

const EntityChange = z
  .object({
    event_id: z.string().describe("The event's id in the log (get_entity_history shows its stream whole)"),
    occurred_at: z.string().describe('When it happened (ISO 8601)'),
    actor: z
      .object({
        kind: z.string().describe('user, api_key, oauth, system…'),
        id: z.string().nullable().describe('Which one of that kind (null for the system)'),
      })
      .describe('Who made the change'),
    entity_type: z
      .string()
      .describe('The record changed: client, page, keyword, site_edit, site_scan, seo_insight, aeo_query, aeo_item, job, …'),
    entity_id: z.union([z.number(), z.string()]).nullable().describe('Its id; null when the change names several records (entity_ids)'),
    entity_ids: z
      .array(z.union([z.number(), z.string()]))
      .nullable()
      .describe(`The records a change of several names (at most ${MAX_ENTITY_IDS}); null for one`),
    action: z
      .enum(['created', 'updated', 'deleted', 'restored', 'status_changed', 'linked', 'unlinked', 'recorded', 'other'])
      .describe('What the change did (derived from event_type; see the entity changes reference)'),
    event_type: z.string().describe('The event type, e.g. KeywordAdded'),
    stream: z.string().describe('The stream it belongs to, e.g. keywords-34'),
    changes: z
      .array(
        z.object({
          field: z.string().describe('The data field'),
          before: z
            .unknown()
            .describe(`Its previous value for the same record (null: none in the ${LOOKBACK_EVENTS} earlier events of the stream)`),
          after: z.unknown().describe(`Its value in this change (a value over ${MAX_VALUE_CHARS} characters is cut to a preview)`),
        }),
      )
      .describe('The fields the change carries whose value differs from before (ids and secrets left out)'),
  })
  .describe('One change to one of the client’s records')

type EntityChangeView = z.infer<typeof EntityChange>

const example = {
  result: [
    {
      event_id: '01956f3c-7a44-7c1e-9d0b-5c2f3e8a1b20',
      occurred_at: '2026-03-09T10:20:00.000Z',
      actor: { kind: 'user', id: '9' },
      entity_type: 'page',
      entity_id: 210,
      entity_ids: null,
      action: 'updated' as const,
      event_type: 'PageUpdated',
      stream: 'pages-34',
      changes: [{ field: 'title', before: 'Drain cleaning', after: 'Drain cleaning in Austin' }],
    },
    {
      event_id: '01956f3b-11d2-7a90-8c4e-2b7d9f6e0c13',
      occurred_at: '2026-03-02T08:02:11.000Z',
      actor: { kind: 'api_key', id: '21' },
      entity_type: 'keyword',
      entity_id: 88,
      entity_ids: null,
      action: 'created' as const,
      event_type: 'KeywordAdded',
      stream: 'keywords-34',
      changes: [
        { field: 'keyword', before: null, after: 'drain cleaning austin' },
        { field: 'source', before: null, after: 'manual' },
      ],
    },
  ],
}

/** The event types of the domain whose action is among `actions`; null (all) without a filter. */
function typesFor(actions: readonly EntityAction[] | undefined): string[] | null {
  return actions === undefined ? null : typesWithActions(Object.keys(eventSchemas), new Set(actions))
}

const asRecord = (data: unknown): Record<string, unknown> =>
  typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {}

/**
 * The page's rows with their data and before/after. Per stream, one read of the events from LOOKBACK_EVENTS
 * before its oldest row on the page to its newest: at most a page of rows plus LOOKBACK_EVENTS events a
 * stream, so a page's work is bounded whatever the streams' lengths.
 */
async function withChanges(history: StreamHistory, rows: readonly EntityChangeRow[], clientId: number): Promise<EntityChangeView[]> {
  const byStream = new Map<string, EntityChangeRow[]>()
  for (const row of rows) byStream.set(row.stream, [...(byStream.get(row.stream) ?? []), row])
  const events = new Map<string, RecordedEvent[]>()
  await Promise.all(
    [...byStream].map(async ([stream, streamRows]) => {
      const revisions = streamRows.map((r) => r.stream_revision)
      const from = Math.max(0, Math.min(...revisions) - LOOKBACK_EVENTS)
      const read: RecordedEvent[] = []
      for await (const event of history.readStream(stream, { fromRevision: BigInt(from), maxCount: Math.max(...revisions) - from + 1 })) {
        read.push(event)
      }
      events.set(stream, read)
    }),
  )
  return rows.map((row) => {
    const read = events.get(row.stream) ?? []
    const index = read.findIndex((e) => e.id === row.event_id)
    const data = index >= 0 ? asRecord(read[index]!.data) : {}
    const earlier = read.slice(Math.max(0, index - LOOKBACK_EVENTS), Math.max(0, index)).map((e) => ({ data: asRecord(e.data) }))
    const entity = entityOf(row.stream, row.event_type, data, clientId)
    return {
      event_id: row.event_id,
      occurred_at: row.occurred_at.toISOString(),
      actor: { kind: row.actor_kind, id: row.actor_id },
      entity_type: entity.entity_type,
      entity_id: entity.entity_id,
      entity_ids: entity.entity_ids,
      action: actionOf(row.event_type),
      event_type: row.event_type,
      stream: row.stream,
      changes: fieldChanges(data, earlier, entity.id_field),
    }
  })
}

interface WindowInput {
  readonly read: Parameters<typeof entityChangeRows>[0]
  readonly history: StreamHistory
  readonly orgId: number | null
  readonly clientId: number
  readonly from: Date
  readonly to: Date
  readonly actions: readonly EntityAction[] | undefined
  readonly page: Page | null
}

async function entityChanges(input: WindowInput): Promise<EntityChangeView[]> {
  const client = await visibleClient(input.read, input.orgId, input.clientId)
  const { limit, offset } = input.page ?? { limit: 50, offset: 0 }
  const rows = await entityChangeRows(input.read, {
    orgId: requireOrgId(input.orgId ?? client.org_id),
    clientId: client.id,
    from: input.from,
    to: input.to,
    types: typesFor(input.actions),
    limit,
    offset,
  })
  return withChanges(input.history, rows, client.id)
}

const summaryTail =
  ' Newest first, paginated: each with its actor, time, the record (entity_type, entity_id), the action and, where the events ' +
  'carry them, the changed fields before and after. actions filters by action.'

/** The entity-changes sub-area's methods. */
export const entityChangesRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_entity_changes',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `The auditor's view of a month: every change to the client's records (the client, its pages, keywords, site edits, snapshots, scans, AI Visibility items, …) from the event log.${summaryTail}`,
    params: z.strictObject({
      client_id: ClientId,
      month: Month.describe('The calendar month, YYYY-MM (UTC)'),
      actions: Actions,
    }),
    paginated: { maxLimit: 200, defaultLimit: 50 },
    result: z.array(EntityChange),
    example: { params: { client_id: 34, month: '2026-03' }, result: example.result },
    async handler(ctx) {
      const { client_id, month, actions } = ctx.params
      const from = new Date(`${month}-01T00:00:00Z`)
      const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1))
      return entityChanges({
        read: ctx.read,
        history: ctx.history,
        orgId: ctx.orgId,
        clientId: client_id,
        from,
        to,
        actions,
        page: ctx.page,
      })
    },
  }),
  rpc({
    name: 'get_entity_changes_between',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `get_entity_changes for the days from start to end, both included (UTC; at most ${MAX_RANGE_DAYS} days).${summaryTail}`,
    params: z.strictObject({
      client_id: ClientId,
      start: Day.describe('The first day, YYYY-MM-DD (UTC), included'),
      end: Day.describe(`The last day, YYYY-MM-DD (UTC), included; on or after start, at most ${MAX_RANGE_DAYS} days in all`),
      actions: Actions,
    }),
    paginated: { maxLimit: 200, defaultLimit: 50 },
    result: z.array(EntityChange),
    example: { params: { client_id: 34, start: '2026-03-01', end: '2026-03-15', actions: ['updated', 'created'] }, result: example.result },
    async handler(ctx) {
      const { client_id, start, end, actions } = ctx.params
      const from = new Date(`${start}T00:00:00Z`)
      const to = new Date(new Date(`${end}T00:00:00Z`).getTime() + DAY_MS)
      const days = (to.getTime() - from.getTime()) / DAY_MS
      if (days < 1) throw new DomainError('validation_failed', 'end is before start', `start ${start}, end ${end}`)
      if (days > MAX_RANGE_DAYS) throw new DomainError('validation_failed', `at most ${MAX_RANGE_DAYS} days at once`, `${days} days asked`)
      return entityChanges({
        read: ctx.read,
        history: ctx.history,
        orgId: ctx.orgId,
        clientId: client_id,
        from,
        to,
        actions,
        page: ctx.page,
      })
    },
  }),
]
