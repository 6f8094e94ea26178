import type { FastifyInstance } from 'fastify'
import { sql, type Kysely } from 'kysely'
import { projectionFailure } from '../../projections/failures.js'
import { MAIN_GROUP } from '../../projections/index.js'
import type { ReadDb } from '../../projections/tables.js'
import type { WorkTables } from '../../migrations/work-tables.js'
import { writesHealth } from '../platform/writes-switch.js'
import { RETRY_AFTER_SECONDS, transientCodeOf } from '../platform/retry-later.js'
import { ERRORS } from '../errors.js'
import { API_VERSION } from '../version.js'

export interface HealthDeps {
  readonly read: ReadDb
  /** The public schema (projection_failures). */
  readonly db: Kysely<WorkTables>
  readonly eventStoreKind: 'postgres' | 'eventstoredb'
}

/**
 * GET /api/v1/health (public): liveness plus row counts. Counts come from the read models (the event
 * count is what the projections applied), so health never scans the log. A projection group that keeps
 * failing (a poison event) makes status `degraded` (still 200: reads are served, only stale) with
 * `projections.failing` saying since when, how often, after which position and why. An unreachable database
 * answers 503 store_unavailable with Retry-After.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  app.get('/api/v1/health', async (_request, reply) => {
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
        return { status: 'unavailable', version: API_VERSION, error: ERRORS.store_unavailable.message, code: 'store_unavailable', hint: ERRORS.store_unavailable.hint }
      }
      return { status: 'unavailable', version: API_VERSION, error: 'The database is not reachable', code: 'service_unavailable' }
    }
  })
}
