import type { Kysely } from 'kysely'
import type { WorkTables } from '../../migrations/work-tables.js'
import { z } from 'zod'
import { WebhookEnvelope } from '../../domain/api-platform/public-events.js'
import type { ReadDb } from '../../projections/tables.js'
import { callerOf } from '../auth/request-caller.js'
import { requireScope } from '../caller.js'
import { ApiError } from '../errors.js'
import { route, type RouteGroup, type RoutePart } from '../platform/route.js'

export interface EventRouteDeps {
  readonly read: ReadDb
  /** The database itself (public schema): webhook_events, the dispatcher's numbered event list. */
  readonly db: Kysely<WorkTables>
}

export const EVENTS_DEFAULT_LIMIT = 100
export const EVENTS_MAX_LIMIT = 1000

/** Cursors are opaque to clients (`v1.<event number>` in base64url), so the numbering can change behind them. */
export const encodeCursor = (number: number) => Buffer.from(`v1.${number}`).toString('base64url')

export function decodeCursor(cursor: string): number {
  const match = /^v1\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match || cursor.length > 40) throw new ApiError('events_cursor_invalid', 'after must be a next_cursor from a previous answer')
  return Number(match[1])
}

const EventsQuery = z.strictObject({
  after: z.string().optional().describe('An opaque cursor (next_cursor of a previous answer); absent: from the oldest event'),
  limit: z
    .string()
    .regex(/^\d{1,5}$/)
    .refine((raw) => Number(raw) >= 1 && Number(raw) <= EVENTS_MAX_LIMIT)
    .optional()
    .meta({ type: 'integer', minimum: 1, maximum: EVENTS_MAX_LIMIT, default: EVENTS_DEFAULT_LIMIT })
    .describe(`Events per page, 1 to ${EVENTS_MAX_LIMIT} (default ${EVENTS_DEFAULT_LIMIT})`),
  org_id: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional()
    .meta({ type: 'integer', minimum: 1 })
    .describe('Platform keys: the organization; an organization key may pass its own'),
})

/** The first fault in the order a reader fixes them (unknown names, then org_id, limit, after), in its own words. */
function invalidEventsQuery(_part: RoutePart, error: z.ZodError): ApiError {
  const unknown = error.issues.find((issue) => issue.code === 'unrecognized_keys')
  if (unknown)
    return new ApiError('validation_failed', `unknown query parameter ${unknown.keys[0]}; use after, limit and (platform keys) org_id`)
  const at = (name: string) => error.issues.some((issue) => issue.path[0] === name)
  if (at('org_id')) return new ApiError('validation_failed', 'org_id: expected an id')
  if (at('limit')) return new ApiError('validation_failed', `limit: 1 to ${EVENTS_MAX_LIMIT}`)
  return new ApiError('events_cursor_invalid', 'after must be a next_cursor from a previous answer')
}

const EventsPage = z.object({
  events: z.array(WebhookEnvelope).describe('Oldest first, each exactly the body its webhook delivery carries'),
  next_cursor: z.string().nullable().describe('Pass as after; null only when there are no events yet'),
  has_more: z.boolean().describe('Another page follows at once'),
})

/**
 * GET /api/v1/events?after=<cursor>&limit=<n>: the organization's webhook-visible events in log order, each
 * with exactly the body a webhook delivery carries (same `id`), so a subscriber that was down replays from its
 * last cursor and deduplicates by id. Pings are not events of the organization and are not listed. An
 * organization key reads its own organization; a platform key passes org_id. Read scope.
 */
export const listEventsRoute = route<EventRouteDeps, z.ZodNever, typeof EventsQuery>({
  method: 'GET',
  path: '/api/v1/events',
  operationId: 'list_events',
  summary: "The organization's webhook events in order, for catching up",
  description:
    'Every webhook-visible event of the organization (and platform events such as api.deprecation), oldest first, each with exactly the body a delivery carries: the same `id` (deduplicate on it). Pass back `next_cursor` as `after` to continue; when caught up the same cursor comes back with no events. Pings are not listed. Read scope; a platform key passes org_id.',
  tag: 'webhooks',
  auth: 'bearer',
  scopes: ['read'],
  query: EventsQuery,
  responses: { 200: { description: 'A page of events.', schema: EventsPage } },
  example: {
    query: { after: encodeCursor(1041), limit: 2 },
    response: {
      status: 200,
      body: {
        events: [
          {
            id: 1042,
            event: 'job.completed',
            created_at: '2026-03-02T09:15:09.000Z',
            org_id: 12,
            client_id: 34,
            data: {
              job_id: 77,
              kind: 'keyword_generation',
              client_id: 34,
              result: { added: 40 },
              status_url: 'https://api.example.com/api/v1/jobs/77',
            },
          },
        ],
        next_cursor: encodeCursor(1042),
        has_more: false,
      },
    },
  },
  invalid: invalidEventsQuery,
  handler: async ({ request, deps, input }) => {
    const caller = await callerOf(request, deps.read)
    requireScope(caller, 'read')
    const q = input.query()
    let orgId = caller.orgId
    if (q.org_id !== undefined) {
      const requested = Number(q.org_id)
      if (caller.orgId !== null && requested !== caller.orgId) throw new ApiError('not_found', `organization ${requested} not found`)
      orgId = requested
    }
    if (orgId === null) throw new ApiError('org_id_required')
    const limit = q.limit === undefined ? EVENTS_DEFAULT_LIMIT : Number(q.limit)
    const after = q.after === undefined || q.after === '' ? 0 : decodeCursor(q.after)
    const rows = await deps.db
      .selectFrom('webhook_events')
      .select(['number', 'name', 'client_id', 'data', 'created_at'])
      .where('in_feed', '=', true)
      .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]))
      .where('number', '>', after)
      .orderBy('number')
      .limit(limit + 1)
      .execute()
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return {
      events: page.map((r) => ({
        id: Number(r.number),
        event: r.name,
        created_at: new Date(r.created_at).toISOString(),
        org_id: orgId,
        client_id: r.client_id === null ? null : Number(r.client_id),
        data: r.data,
      })),
      next_cursor: last ? encodeCursor(Number(last.number)) : q.after || null,
      has_more: rows.length > limit,
    }
  },
})

export const eventRoutes: RouteGroup<EventRouteDeps> = { routes: [listEventsRoute] }
