import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { MAIN_GROUP } from '../../projections/index.js'
import type { ReadDb } from '../../projections/tables.js'
import { writesHealth } from '../platform/writes-switch.js'
import { API_VERSION } from '../version.js'

export interface HealthDeps {
  readonly read: ReadDb
  readonly eventStoreKind: 'postgres' | 'eventstoredb'
}

/**
 * GET /api/v1/health (public): liveness plus row counts. Counts come from the read models (the event
 * count is what the projections applied), so health never scans the log.
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
      const [organizations, clients, apiKeys, checkpoint, writes] = await Promise.all([
        count('organizations'),
        count('clients'),
        count('api_keys'),
        deps.read
          .selectFrom('projection_checkpoint')
          .select(['position', 'events_applied', 'updated_at'])
          .where('group_name', '=', MAIN_GROUP)
          .executeTakeFirst(),
        writesHealth(app),
      ])
      return {
        status: 'ok',
        version: API_VERSION,
        event_store: deps.eventStoreKind,
        projections: {
          position: checkpoint?.position ?? null,
          events_applied: checkpoint?.events_applied ?? 0,
          updated_at: checkpoint?.updated_at.toISOString() ?? null,
        },
        counts: { organizations, clients, api_keys: apiKeys, events: checkpoint?.events_applied ?? 0 },
        writes,
      }
    } catch (error) {
      reply.log.error({ err: error }, 'health check failed')
      reply.code(503)
      return { status: 'unavailable', version: API_VERSION, error: 'The database is not reachable', code: 'service_unavailable' }
    }
  })
}
