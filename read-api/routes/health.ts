import { sql, type Kysely } from 'kysely'
import { z } from 'zod'
import { projectionFailure } from '../../projections/failures.js'
import { MAIN_GROUP } from '../../projections/index.js'
import type { ReadDb } from '../../projections/tables.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import { writesHealth } from '../platform/writes-switch.js'
import { RETRY_AFTER_SECONDS, transientCodeOf } from '../platform/retry-later.js'
import { ERRORS } from '../errors.js'
import { route, type RouteGroup } from '../platform/route.js'
import { API_VERSION } from '../version.js'

export interface HealthDeps {
  readonly read: ReadDb
  /** The public schema (projection_failures). */
  readonly db: Kysely<WorkTables>
  readonly eventStoreKind: 'postgres' | 'eventstoredb'
}

const Health = z.object({
  status: z.enum(['ok', 'degraded']).describe('degraded: a projection group keeps failing; reads are served, but stale'),
  version: z.string().describe('The API version'),
  event_store: z.enum(['postgres', 'eventstoredb']).describe('The event store in use'),
  projections: z
    .object({
      position: z.string().nullable().describe('The log position the read models reflect'),
      events_applied: z.number().int().describe('Events the projections applied'),
      updated_at: z.string().nullable().describe('When the checkpoint last moved'),
      failing: z
        .record(z.string(), z.unknown())
        .nullable()
        .describe('A failing group: since when, how often, after which position and why; else null'),
    })
    .describe('The read models'),
  counts: z
    .object({
      organizations: z.number().int().describe('Organizations'),
      clients: z.number().int().describe('Clients'),
      api_keys: z.number().int().describe('API keys'),
      events: z.number().int().describe('Events applied'),
    })
    .describe('Row counts of the read models'),
  writes: z
    .object({
      enabled: z.boolean().describe('Writes are accepted'),
      since: z.string().describe('When the switch last changed'),
      reason: z.string().nullable().describe('Why writes are off, as the operator said'),
    })
    .describe('The writes switch'),
})

const Unavailable = z.object({
  status: z.literal('unavailable').describe('The database is not reachable'),
  version: z.string().describe('The API version'),
  error: z.string().describe('Human-readable message'),
  code: z.enum(['store_unavailable', 'service_unavailable']).describe('Stable machine code'),
  hint: z.string().optional().describe('What to do'),
})

/**
 * GET /api/v1/health (public): liveness plus row counts. Counts come from the read models (the event
 * count is what the projections applied), so health never scans the log. A projection group that keeps
 * failing (a poison event) makes status `degraded` (still 200: reads are served, only stale) with
 * `projections.failing` saying since when, how often, after which position and why. An unreachable database
 * answers 503 store_unavailable with Retry-After.
 */
export const healthRoute = route<HealthDeps>({
  method: 'GET',
  path: '/api/v1/health',
  operationId: 'health',
  summary: 'Liveness: status and row counts',
  tag: 'meta',
  auth: 'public',
  responses: {
    200: {
      description:
        'Serving. status is degraded while the read models are stuck (projections.failing says since when and why): reads answer, but stale.',
      schema: Health,
    },
    503: { description: 'The database is not reachable: code store_unavailable, with Retry-After (seconds).', schema: Unavailable },
  },
  example: {
    response: {
      status: 200,
      body: {
        status: 'ok',
        version: API_VERSION,
        event_store: 'postgres',
        projections: { position: '0000000000001042', events_applied: 1042, updated_at: '2026-03-02T09:15:09.000Z', failing: null },
        counts: { organizations: 3, clients: 41, api_keys: 7, events: 1042 },
        writes: { enabled: true, since: '2026-03-01T00:00:00.000Z', reason: null },
      },
    },
  },
  handler: async ({ request: { server: app }, reply, deps }) => {
    try {
      const count = (table: 'organizations' | 'clients' | 'api_keys') =>
        deps.read
          .selectFrom(table)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => r.n)
      const [organizations, clients, apiKeys, checkpoint, writes, failing] = await Promise.all([
        count('organizations'),
        count('clients'),
        count('api_keys'),
        deps.read
          .selectFrom('projection_checkpoint')
          .select(['position', 'events_applied', 'updated_at'])
          .where('group_name', '=', MAIN_GROUP)
          .executeTakeFirst(),
        writesHealth(app),
        projectionFailure(deps.db, MAIN_GROUP, new Date()),
      ])
      return {
        status: failing ? 'degraded' : 'ok',
        version: API_VERSION,
        event_store: deps.eventStoreKind,
        projections: {
          position: checkpoint?.position ?? null,
          events_applied: checkpoint?.events_applied ?? 0,
          updated_at: checkpoint?.updated_at.toISOString() ?? null,
          failing,
        },
        counts: { organizations, clients, api_keys: apiKeys, events: checkpoint?.events_applied ?? 0 },
        writes,
      }
    } catch (error) {
      // An unreachable database is logged once per outage (the logger hands such lines to the outage watch).
      reply.log.error({ err: error }, 'health check failed')
      reply.code(503)
      if (transientCodeOf(error) === 'store_unavailable') {
        reply.header('Retry-After', String(RETRY_AFTER_SECONDS.store_unavailable))
        return {
          status: 'unavailable',
          version: API_VERSION,
          error: ERRORS.store_unavailable.message,
          code: 'store_unavailable',
          hint: ERRORS.store_unavailable.hint,
        }
      }
      return { status: 'unavailable', version: API_VERSION, error: 'The database is not reachable', code: 'service_unavailable' }
    }
  },
})

export const healthRoutes: RouteGroup<HealthDeps> = { routes: [healthRoute] }
