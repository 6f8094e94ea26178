import { sql } from 'kysely'
import { agentKey, type Capabilities } from '../../domain/aeo/runs/agent.js'
import { run, type AgentRef } from '../../domain/aeo/runs/run.js'
import type { Engine } from '../../domain/aeo/engines.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { appendDecidedEach } from '../append.js'
import type { CommandContext } from '../command-handler.js'
import { WrongExpectedRevisionError } from '../event-store/port.js'
import { checkInAgent } from './agents.js'
import type { AgentRow } from './run-queue-reads.js'
import type { RunDeps } from './runs.js'

/** A claimed run as the agent receives it: what to ask, on which engine, for whom. */
export interface ClaimedRun {
  id: number
  query_id: number
  client_id: number
  engine: Engine
  geo_state: string | null
  month: string
  attempt: number
  prompt: string
  client_name: string
  lease_expires_at: string
}

export interface ClaimInput {
  readonly agentId: string
  /** The organization of the key the agent uses (null: a platform agent, which may claim any organization's runs). */
  readonly agentOrgId: number | null
  readonly capabilities: Capabilities
  readonly limit: number
}

/**
 * How long a lease guards a run between its selection and its AeoRunClaimed. Once the claim is recorded
 * the run's revision moves on and the lease no longer matters; if the claimer died in between, the run is
 * claimable again when this runs out.
 */
const LEASE_GUARD_SECONDS = 60

interface Candidate {
  id: number
  revision: number
  org_id: number
  client_id: number
  query_id: number
  engine: Engine
  geo_state: string | null
  month: string
  attempts: number
  retry_at: Date | null
  prompt: string | null
  client_name: string | null
}

/** A row of the claim statement: a leased run (id null when none), and the agent's read-model row on every row. */
type ClaimRow = { [K in keyof Candidate]: Candidate[K] | null } & {
  agent_engines: string[] | null
  agent_geo: string | null
  agent_max_per_day: number | null
  agent_last_seen_at: Date | null
}

/**
 * Claims up to `limit` queued runs for an agent, atomically and disjointly across any number of
 * concurrent agents and processes:
 * 1. one statement selects candidates from the queue `for update skip locked`, skipping runs with a live
 *    lease at their current revision, and upserts leases; the upsert takes a lease only where none is live (decided against the
 *    latest committed lease, so two claimers never both get one). The same statement reads the agent's
 *    read-model row, so the check-in costs no statement of its own when there is nothing to record (the
 *    common case: the agent claimed within the last minute with the same capabilities);
 * 2. otherwise the check-in is recorded (checkInAgent), still before the claims, so the log shows the agent
 *    registered before its first AeoRunClaimed;
 * 3. the leased runs get their AeoRunClaimed in one appendEach (one statement and one commit on
 *    PostgreSQL, however many runs), each with expected revision = the revision it was selected at: a run
 *    that changed meanwhile (claimed, cancelled) conflicts, and is dropped with its lease.
 * Claimable: queued and past its retry time (a failed run waits out its backoff), engine in the agent's
 * list, and the run has no geo, or the agent's geo is `any` or equal to the run's; an organization's agent
 * claims only its organization's runs. max_per_day counts the runs the agent claimed in the last 24 hours
 * (such an agent checks in first, then counts, then selects).
 */
export async function claimRuns(deps: RunDeps, context: CommandContext, input: ClaimInput): Promise<ClaimedRun[]> {
  const ref: AgentRef = { agent_id: input.agentId, agent_org_id: input.agentOrgId }
  const capped = input.capabilities.max_per_day !== null
  if (capped) await checkInAgent(deps, context, ref, input.capabilities)
  const now = deps.clock()
  const key = agentKey(ref)
  const limit =
    input.capabilities.max_per_day === null
      ? input.limit
      : Math.min(input.limit, await remainingToday(deps, ref, now, input.capabilities.max_per_day))
  if (limit <= 0) return []
  const leaseUntil = new Date(now.getTime() + Math.min(LEASE_GUARD_SECONDS, deps.settings.claimLeaseSeconds) * 1000)
  const runs = sql.id(LIVE_SCHEMA, 'aeo_runs')
  const geo = input.capabilities.geo.trim().toLowerCase()
  const { rows: result } = await sql<ClaimRow>`
    with agent as (
      select engines, geo, max_per_day, last_seen_at from ${sql.id(LIVE_SCHEMA, 'aeo_agents')} where agent_key = ${key}
    ), candidates as (
      select r.id, r.revision from ${runs} r
      where r.status = 'queued'
        and (r.retry_at is null or r.retry_at <= ${now})
        and r.engine = any(${sql.val([...input.capabilities.engines])}::text[])
        ${geo === 'any' ? sql`` : sql`and (r.geo_state is null or lower(r.geo_state) = ${geo})`}
        ${input.agentOrgId === null ? sql`` : sql`and r.org_id = ${input.agentOrgId}`}
        and not exists (
          select 1 from aeo_run_leases l where l.run_id = r.id and l.revision = r.revision and l.expires_at > ${now})
      order by r.priority desc, r.id
      limit ${limit}
      for update of r skip locked
    ), leased as (
      insert into aeo_run_leases (run_id, agent_key, revision, expires_at)
      select id, ${key}, revision, ${leaseUntil} from candidates
      on conflict (run_id) do update set agent_key = excluded.agent_key, revision = excluded.revision, expires_at = excluded.expires_at
        where aeo_run_leases.revision <> excluded.revision or aeo_run_leases.expires_at <= ${now}
      returning run_id, revision
    ), claimed as (
      select r.id, l.revision, r.org_id, r.client_id, r.query_id, r.engine, r.geo_state, r.month, r.attempts, r.retry_at, r.priority,
             q.prompt, c.name as client_name
      from leased l
      join ${runs} r on r.id = l.run_id
      left join ${sql.id(LIVE_SCHEMA, 'aeo_queries')} q on q.id = r.query_id
      left join ${sql.id(LIVE_SCHEMA, 'clients')} c on c.id = r.client_id
    )
    select claimed.id, claimed.revision, claimed.org_id, claimed.client_id, claimed.query_id, claimed.engine, claimed.geo_state,
           claimed.month, claimed.attempts, claimed.retry_at, claimed.prompt, claimed.client_name,
           a.engines as agent_engines, a.geo as agent_geo, a.max_per_day as agent_max_per_day, a.last_seen_at as agent_last_seen_at
    from (select 1) as one
    left join agent a on true
    left join claimed on true
    order by claimed.priority desc, claimed.id`.execute(deps.db)
  const rows = result.filter((row): row is ClaimRow & Candidate => row.id !== null)

  if (!capped) {
    const first = result[0]
    const agentRow: AgentRow | null =
      first?.agent_engines == null
        ? null
        : {
            engines: first.agent_engines,
            geo: first.agent_geo!,
            max_per_day: first.agent_max_per_day,
            last_seen_at: first.agent_last_seen_at!,
          }
    try {
      await checkInAgent(deps, context, ref, input.capabilities, agentRow)
    } catch (error) {
      // No claim without its check-in: the leases go at once rather than holding the runs for a minute.
      await releaseLeases(deps, key, rows)
      throw error
    }
  }
  if (rows.length === 0) return []

  const leaseExpiresAt = new Date(now.getTime() + deps.settings.claimLeaseSeconds * 1000).toISOString()
  const writes = rows.map((row) => {
    // The state the run was selected in; its revision guards the append, so a stale row only loses.
    const state = {
      ...run.initialState(),
      exists: true,
      id: row.id,
      status: 'queued' as const,
      attempts: row.attempts,
      retryAt: row.retry_at === null ? null : row.retry_at.toISOString(),
    }
    const events = run.decide({ type: 'ClaimRun', agent: ref, lease_expires_at: leaseExpiresAt, now: now.toISOString() }, state)
    return { stream: run.streamOf(row.id), events, expected: BigInt(row.revision), orgId: row.org_id }
  })
  const outcomes = await appendDecidedEach(deps, context, writes)
  const lost = rows.filter((_, i) => outcomes[i] instanceof WrongExpectedRevisionError)
  // Those runs changed since they were selected: their leases go, so they are claimable at once if queued.
  if (lost.length > 0) await releaseLeases(deps, key, lost)
  return rows
    .filter((_, i) => !(outcomes[i] instanceof WrongExpectedRevisionError))
    .map((row) => ({
      id: row.id,
      query_id: row.query_id,
      client_id: row.client_id,
      engine: row.engine,
      geo_state: row.geo_state,
      month: row.month,
      attempt: row.attempts + 1,
      prompt: row.prompt ?? '',
      client_name: row.client_name ?? '',
      lease_expires_at: leaseExpiresAt,
    }))
}

/** Drops this agent's leases on the given runs (at the revision they were selected at). */
async function releaseLeases(deps: RunDeps, key: string, runs: readonly { id: number; revision: number }[]): Promise<void> {
  if (runs.length === 0) return
  await sql`delete from aeo_run_leases where agent_key = ${key}
    and (run_id, revision) in (select * from unnest(${runs.map((r) => r.id)}::bigint[], ${runs.map((r) => r.revision)}::bigint[]))`.execute(
    deps.db,
  )
}

/**
 * Claims the agent may still make today: max_per_day minus the runs it claimed in the last 24 hours
 * (recorded claims, plus leases it holds on runs whose claim the read model does not show yet).
 */
async function remainingToday(deps: RunDeps, ref: AgentRef, now: Date, maxPerDay: number): Promise<number> {
  const since = new Date(now.getTime() - 24 * 3600 * 1000)
  const runs = sql.id(LIVE_SCHEMA, 'aeo_runs')
  const { rows } = await sql<{ n: number }>`
    select (
      (select count(*) from ${runs} r
        where r.agent_id = ${ref.agent_id} and r.agent_org_id is not distinct from ${ref.agent_org_id}::bigint and r.claimed_at > ${since})
      + (select count(*) from aeo_run_leases l join ${runs} r on r.id = l.run_id and r.revision = l.revision
        where l.agent_key = ${agentKey(ref)} and l.expires_at > ${now})
    )::int as n`.execute(deps.db)
  return maxPerDay - (rows[0]?.n ?? 0)
}
