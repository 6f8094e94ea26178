import { sql } from 'kysely'
import { isEngine } from '../../../domain/aeo/engines.js'
import { agentKey } from '../../../domain/aeo/runs/agent.js'
import { engineWarnings, type EngineWarning } from '../../../domain/aeo/runs/engine-warnings.js'
import type { AgentRef } from '../../../domain/aeo/runs/run.js'
import type { ReadDb } from '../../tables.js'
import type { AeoRunStatus } from '../tables.js'

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

/** get_aeo_cadence: the cadence, or `{}` when the client was never enrolled. */
export async function cadenceOf(
  db: ReadDb,
  clientId: number,
): Promise<{ enabled: boolean; samples_per_month: number; engines: string[]; geo_state: string | null } | Record<string, never>> {
  const row = await db.selectFrom('aeo_cadences').selectAll().where('client_id', '=', clientId).executeTakeFirst()
  if (!row) return {}
  return { enabled: row.enabled, samples_per_month: row.samples_per_month, engines: row.engines, geo_state: row.geo_state }
}

export interface RunView {
  id: number
  client_id: number
  query_id: number
  engine: string
  month: string
  geo_state: string | null
  priority: number
  sample: number
  status: AeoRunStatus
  agent_id: string | null
  attempts: number
  error: string | null
  capture_id: number | null
  lease_expires_at: string | null
  /** A queued run waiting after a failure: not claimable before this time. */
  retry_at: string | null
  queued_at: string
  claimed_at: string | null
  finished_at: string | null
  updated_at: string
}

/** get_aeo_runs: the client's runs, newest first. */
export async function runsOfClient(db: ReadDb, clientId: number, month: string | undefined, limit: number, offset = 0): Promise<RunView[]> {
  let query = db.selectFrom('aeo_runs').selectAll().where('client_id', '=', clientId)
  if (month !== undefined) query = query.where('month', '=', month)
  const rows = await query.orderBy('id', 'desc').limit(limit).offset(offset).execute()
  return rows.map((r) => ({
    id: r.id,
    client_id: r.client_id,
    query_id: r.query_id,
    engine: r.engine,
    month: r.month,
    geo_state: r.geo_state,
    priority: r.priority,
    sample: r.sample,
    status: r.status,
    agent_id: r.agent_id,
    attempts: r.attempts,
    error: r.error,
    capture_id: r.capture_id,
    lease_expires_at: iso(r.lease_expires_at),
    retry_at: iso(r.retry_at),
    queued_at: r.queued_at.toISOString(),
    claimed_at: iso(r.claimed_at),
    finished_at: iso(r.finished_at),
    updated_at: r.updated_at.toISOString(),
  }))
}

export const RUN_STATUSES = ['queued', 'claimed', 'running', 'done', 'failed', 'cancelled'] as const
export type RunStats = Record<(typeof RUN_STATUSES)[number] | 'total', number>

const statusCounts = sql<number>`count(*)::int`

/** get_aeo_run_stats: counts by status over an organization (null: every one), a client, a month. */
export async function runStats(
  db: ReadDb,
  filter: { orgId: number | null; clientId?: number | undefined; month?: string | undefined },
): Promise<RunStats> {
  let query = db.selectFrom('aeo_runs').select(['status']).select(statusCounts.as('n')).groupBy('status')
  if (filter.orgId !== null) query = query.where('org_id', '=', filter.orgId)
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId)
  if (filter.month !== undefined) query = query.where('month', '=', filter.month)
  const rows = await query.execute()
  const stats = { queued: 0, claimed: 0, running: 0, done: 0, failed: 0, cancelled: 0, total: 0 }
  for (const row of rows) {
    stats[row.status] = row.n
    stats.total += row.n
  }
  return stats
}

/** count_aeo_runs_done_today: runs the agent completed in the last 24 hours. */
export async function doneToday(db: ReadDb, agent: AgentRef, now: Date): Promise<number> {
  let query = db
    .selectFrom('aeo_runs')
    .select(statusCounts.as('n'))
    .where('status', '=', 'done')
    .where('agent_id', '=', agent.agent_id)
    .where('finished_at', '>', new Date(now.getTime() - 24 * 3600 * 1000))
  query = agent.agent_org_id === null ? query.where('agent_org_id', 'is', null) : query.where('agent_org_id', '=', agent.agent_org_id)
  const row = await query.executeTakeFirst()
  return row?.n ?? 0
}

export interface AgentView {
  agent_id: string
  /** The organization that registered it; null: a platform agent (such as the built-in server-api). */
  org_id: number | null
  online: boolean
  last_seen_at: string
  registered_at: string
  capabilities: { engines: string[]; geo: string; max_per_day: number | null }
  current_run: { id: number; client_id: number; engine: string; status: string; claimed_at: string | null } | null
  runs: { claimed: number; running: number; done: number; failed: number; done_24h: number }
}

/**
 * get_aeo_agents: an organization sees its own agents and the platform agents (whose run counts and
 * current run are limited to the organization's runs); null sees every agent and every run.
 */
export async function agentsView(db: ReadDb, orgId: number | null, now: Date, onlineSeconds: number): Promise<AgentView[]> {
  let agents = db.selectFrom('aeo_agents').selectAll()
  if (orgId !== null) agents = agents.where((eb) => eb.or([eb('agent_org_id', '=', orgId), eb('agent_org_id', 'is', null)]))
  const rows = await agents.orderBy('agent_org_id').orderBy('agent_id').execute()
  if (rows.length === 0) return []
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000)
  let counts = db
    .selectFrom('aeo_runs')
    .select(['agent_id', 'agent_org_id'])
    .select(sql<number>`count(*) filter (where status = 'claimed')::int`.as('claimed'))
    .select(sql<number>`count(*) filter (where status = 'running')::int`.as('running'))
    .select(sql<number>`count(*) filter (where status = 'done')::int`.as('done'))
    .select(sql<number>`count(*) filter (where status = 'failed')::int`.as('failed'))
    .select(sql<number>`count(*) filter (where status = 'done' and finished_at > ${dayAgo})::int`.as('done_24h'))
    .select(
      sql<number | null>`(array_agg(id order by claimed_at desc) filter (where status in ('claimed', 'running')))[1]`.as('current_run'),
    )
    .where('agent_id', 'is not', null)
    .groupBy(['agent_id', 'agent_org_id'])
  if (orgId !== null) counts = counts.where('org_id', '=', orgId)
  const byAgent = new Map((await counts.execute()).map((c) => [agentKey({ agent_id: c.agent_id!, agent_org_id: c.agent_org_id }), c]))
  const currentIds = [...byAgent.values()].map((c) => c.current_run).filter((id): id is number => id !== null)
  const current = currentIds.length
    ? new Map(
        (
          await db
            .selectFrom('aeo_runs')
            .select(['id', 'client_id', 'engine', 'status', 'claimed_at'])
            .where('id', 'in', currentIds)
            .execute()
        ).map((r) => [r.id, r]),
      )
    : new Map()
  return rows.map((a) => {
    const c = byAgent.get(a.agent_key)
    const run = c?.current_run != null ? current.get(c.current_run) : undefined
    return {
      agent_id: a.agent_id,
      org_id: a.agent_org_id,
      online: now.getTime() - a.last_seen_at.getTime() <= onlineSeconds * 1000,
      last_seen_at: a.last_seen_at.toISOString(),
      registered_at: a.registered_at.toISOString(),
      capabilities: { engines: a.engines, geo: a.geo, max_per_day: a.max_per_day },
      current_run: run
        ? { id: run.id, client_id: run.client_id, engine: run.engine, status: run.status, claimed_at: iso(run.claimed_at) }
        : null,
      runs: { claimed: c?.claimed ?? 0, running: c?.running ?? 0, done: c?.done ?? 0, failed: c?.failed ?? 0, done_24h: c?.done_24h ?? 0 },
    }
  })
}

/**
 * The engines an organization's runs can be claimed for: those in the current capabilities of any agent that
 * may claim them (the organization's own and the platform's, such as the built-in server-api, which claims
 * exactly the engines it has keys for); orgId null: every agent's. An agent seen once counts, online or not: an
 * operator device may claim only now and then.
 */
export async function claimedEngines(db: ReadDb, orgId: number | null): Promise<Set<string>> {
  let agents = db.selectFrom('aeo_agents').select('engines')
  if (orgId !== null) agents = agents.where((eb) => eb.or([eb('agent_org_id', '=', orgId), eb('agent_org_id', 'is', null)]))
  return new Set((await agents.execute()).flatMap((a) => a.engines))
}

export interface QueueOverview {
  stats: RunStats
  oldest_queued_at: string | null
  /** Queued runs (counted in stats.queued) that wait for their retry time after a failure. */
  waiting_retry: number
  engines: { engine: string; queued: number; claimed: number; running: number; agents_online: number }[]
  clients: { client_id: number; name: string; queued: number; claimed: number; running: number; done: number; failed: number }[]
  agents_online: number
  /** Engines of the enabled cadences or of queued runs that no agent has claimed with (by name). */
  warnings: EngineWarning[]
}

/** get_aeo_queue_overview: the queue by engine and by client, with the agents online per engine. */
export async function queueOverview(db: ReadDb, orgId: number | null, now: Date, onlineSeconds: number): Promise<QueueOverview> {
  const scoped = <Q extends { where: (...args: any[]) => Q }>(q: Q, column: string) => (orgId === null ? q : q.where(column, '=', orgId))
  const [stats, oldest, engines, clients, agents, answered, enrolled] = await Promise.all([
    runStats(db, { orgId }),
    scoped(
      db
        .selectFrom('aeo_runs')
        .select(sql<Date | null>`min(queued_at)`.as('at'))
        .select(sql<number>`count(*) filter (where retry_at > ${now})::int`.as('waiting_retry'))
        .where('status', '=', 'queued'),
      'org_id',
    ).executeTakeFirst(),
    scoped(
      db
        .selectFrom('aeo_runs')
        .select('engine')
        .select(sql<number>`count(*) filter (where status = 'queued')::int`.as('queued'))
        .select(sql<number>`count(*) filter (where status = 'claimed')::int`.as('claimed'))
        .select(sql<number>`count(*) filter (where status = 'running')::int`.as('running'))
        .where('status', 'in', ['queued', 'claimed', 'running'])
        .groupBy('engine'),
      'org_id',
    ).execute(),
    scoped(
      db
        .selectFrom('aeo_runs as r')
        .innerJoin('clients as c', 'c.id', 'r.client_id')
        .select(['r.client_id', 'c.name'])
        .select(sql<number>`count(*) filter (where r.status = 'queued')::int`.as('queued'))
        .select(sql<number>`count(*) filter (where r.status = 'claimed')::int`.as('claimed'))
        .select(sql<number>`count(*) filter (where r.status = 'running')::int`.as('running'))
        .select(sql<number>`count(*) filter (where r.status = 'done')::int`.as('done'))
        .select(sql<number>`count(*) filter (where r.status = 'failed')::int`.as('failed'))
        .groupBy(['r.client_id', 'c.name'])
        .orderBy('r.client_id'),
      'r.org_id',
    ).execute(),
    db
      .selectFrom('aeo_agents')
      .select(['engines'])
      .where('last_seen_at', '>=', new Date(now.getTime() - onlineSeconds * 1000))
      .where((eb) => (orgId === null ? eb.val(true) : eb.or([eb('agent_org_id', '=', orgId), eb('agent_org_id', 'is', null)])))
      .execute(),
    claimedEngines(db, orgId),
    scoped(
      db
        .selectFrom('aeo_cadences as k')
        .innerJoin('clients as c', 'c.id', 'k.client_id')
        .select(sql<string>`unnest(k.engines)`.as('engine'))
        .where('k.enabled', '=', true)
        .where('c.status', '=', 'active'),
      'c.org_id',
    ).execute(),
  ])
  // Engines that will be asked for (enrolled) or already are (queued), once each, by name.
  const wanted = [...new Set([...enrolled.map((e) => e.engine), ...engines.filter((e) => e.queued > 0).map((e) => e.engine)])].sort()
  return {
    stats,
    oldest_queued_at: iso(oldest?.at ?? null),
    waiting_retry: oldest?.waiting_retry ?? 0,
    engines: engines.map((e) => ({ ...e, agents_online: agents.filter((a) => a.engines.includes(e.engine)).length })),
    clients,
    agents_online: agents.length,
    warnings: engineWarnings(wanted.filter(isEngine), answered),
  }
}

/** The clients an enqueue covers: enrolled (cadence enabled) and active, of one organization or of all. */
export async function enrolledClientIds(db: ReadDb, orgId: number | null): Promise<number[]> {
  let query = db
    .selectFrom('aeo_cadences as k')
    .innerJoin('clients as c', 'c.id', 'k.client_id')
    .select('k.client_id')
    .where('k.enabled', '=', true)
    .where('c.status', '=', 'active')
  if (orgId !== null) query = query.where('c.org_id', '=', orgId)
  const rows = await query.orderBy('k.client_id').execute()
  return rows.map((r) => r.client_id)
}
