import { sql } from 'kysely'
import type { RunQueueReads } from '../../../commands/aeo/run-queue-reads.js'
import type { ReadDb } from '../../tables.js'

/** The run commands' reads (commands/aeo/run-queue-reads.ts) over the read models of `db`. */
export function runQueueReads(db: ReadDb): RunQueueReads {
  return {
    client: (clientId) => db.selectFrom('clients').select(['org_id', 'status']).where('id', '=', clientId).executeTakeFirst(),
    cadence: (clientId) =>
      db
        .selectFrom('aeo_cadences')
        .select(['enabled', 'samples_per_month', 'engines', 'geo_state'])
        .where('client_id', '=', clientId)
        .executeTakeFirst(),
    activeQuestions: (clientId) =>
      db
        .selectFrom('aeo_queries')
        .select(['id', 'priority'])
        .where('client_id', '=', clientId)
        .where('active', '=', true)
        .orderBy('id')
        .execute(),
    monthRunCounts: (clientId, month) =>
      db
        .selectFrom('aeo_runs')
        .select(['query_id', 'engine'])
        .select(sql<number>`count(*) filter (where status not in ('cancelled', 'failed'))::int`.as('live'))
        .select(sql<number>`count(*)::int`.as('total'))
        .where('client_id', '=', clientId)
        .where('month', '=', month)
        .groupBy(['query_id', 'engine'])
        .execute(),
    async queuedRunIds(filter) {
      let query = db.selectFrom('aeo_runs').select('id').where('client_id', '=', filter.clientId).where('status', '=', 'queued')
      if (filter.month !== undefined) query = query.where('month', '=', filter.month)
      if (filter.queryId !== undefined) query = query.where('query_id', '=', filter.queryId)
      // `in ()` is not SQL: an empty engine list selects no engine through a value no engine has.
      if (filter.engines !== undefined) query = query.where('engine', 'in', filter.engines.length > 0 ? [...filter.engines] : [''])
      if (filter.exceptEngines !== undefined && filter.exceptEngines.length > 0)
        query = query.where('engine', 'not in', [...filter.exceptEngines])
      const rows = await query.orderBy('id').execute()
      return rows.map((r) => r.id)
    },
    async staleClaimIds(now, limit) {
      const rows = await db
        .selectFrom('aeo_runs')
        .select('id')
        .where('status', 'in', ['claimed', 'running'])
        .where('lease_expires_at', '<=', now)
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map((r) => r.id)
    },
    agent: (agentKey) =>
      db
        .selectFrom('aeo_agents')
        .select(['engines', 'geo', 'max_per_day', 'last_seen_at'])
        .where('agent_key', '=', agentKey)
        .executeTakeFirst(),
  }
}
