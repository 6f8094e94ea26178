import { isOfType, occurredAt, orgIdOf, type EventOf, type ProjectedEvent, type Projector } from '../../projector.js'
import { sql } from 'kysely'
import { agentKey } from '../../../domain/aeo/runs/agent.js'
import { applyHandler, typesOf, type EventHandlers } from '../../each-event.js'
import type { ReadDb } from '../../tables.js'
import type { AeoRunsTable } from '../tables.js'
import type { Updateable } from 'kysely'

/**
 * aeo_cadences, aeo_runs and aeo_agents. Every aeo_runs write after the first is guarded by the stream
 * revision (`revision < event revision`), so a replayed or redelivered event changes nothing, and the
 * row's revision is always the expected revision of the run's next append (claims rely on it).
 */
async function updateRun(db: ReadDb, event: EventOf<RunChange>, changes: Updateable<AeoRunsTable>): Promise<void> {
  const revision = Number(event.revision)
  await db
    .updateTable('aeo_runs')
    .set({ ...changes, revision, updated_at: occurredAt(event) })
    .where('id', '=', event.data.run_id)
    .where('revision', '<', revision)
    .execute()
}

/** An agent's row; its last_seen_at only moves forward. */
async function upsertAgent(
  db: ReadDb,
  event: EventOf<'AeoAgentRegistered' | 'AeoAgentCapabilitiesChanged' | 'AeoAgentSeen'>,
  capabilities: { engines: string[]; geo: string; max_per_day: number | null } | null,
): Promise<void> {
  const d = event.data
  const at = occurredAt(event)
  const key = agentKey({ agent_id: d.agent_id, agent_org_id: d.agent_org_id })
  if (capabilities === null) {
    await db
      .updateTable('aeo_agents')
      .set({ last_seen_at: sql`greatest(last_seen_at, ${at})` })
      .where('agent_key', '=', key)
      .execute()
    return
  }
  await db
    .insertInto('aeo_agents')
    .values({
      agent_key: key,
      agent_id: d.agent_id,
      agent_org_id: d.agent_org_id,
      engines: capabilities.engines,
      geo: capabilities.geo,
      max_per_day: capabilities.max_per_day,
      registered_at: at,
      last_seen_at: at,
    })
    .onConflict((oc) =>
      oc.column('agent_key').doUpdateSet({
        engines: capabilities.engines,
        geo: capabilities.geo,
        max_per_day: capabilities.max_per_day,
        registered_at: sql`least(aeo_agents.registered_at, excluded.registered_at)`,
        last_seen_at: sql`greatest(aeo_agents.last_seen_at, excluded.last_seen_at)`,
      }),
    )
    .execute()
}

/** The run events after the first, each guarded by the run's revision (updateRun). */
type RunChange = 'AeoRunClaimed' | 'AeoRunStarted' | 'AeoRunCompleted' | 'AeoRunFailed' | 'AeoRunClaimExpired' | 'AeoRunCancelled'

/** Run events written one statement per segment (the queue's hot path: enqueues and claims). */
const SEGMENTED = ['AeoRunQueued', 'AeoRunClaimed'] as const

/** The events of `type` from `start` on, up to the first of another type or a second one of the same run. */
function segmentOf<T extends (typeof SEGMENTED)[number]>(events: readonly ProjectedEvent[], start: number, type: T): EventOf<T>[] {
  const runs = new Set<number>()
  const segment: EventOf<T>[] = []
  for (let j = start; j < events.length; j++) {
    const event = events[j]!
    if (!isOfType(event, type)) break
    const runId = (event as EventOf<(typeof SEGMENTED)[number]>).data.run_id
    if (runs.has(runId)) break
    runs.add(runId)
    segment.push(event)
  }
  return segment
}

/** AeoRunQueued × n: one insert, a row per run (a run already there, a redelivery, stays as it is). */
async function insertQueued(db: ReadDb, events: readonly EventOf<'AeoRunQueued'>[]): Promise<void> {
  await db
    .insertInto('aeo_runs')
    .values(
      events.map((event) => {
        const d = event.data
        const at = occurredAt(event)
        return {
          id: d.run_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          query_id: d.query_id,
          engine: d.engine,
          month: d.month,
          geo_state: d.geo_state,
          priority: d.priority,
          sample: d.sample,
          status: 'queued' as const,
          agent_id: null,
          agent_org_id: null,
          attempts: 0,
          error: null,
          capture_id: null,
          lease_expires_at: null,
          retry_at: null,
          revision: Number(event.revision),
          queued_at: at,
          claimed_at: null,
          finished_at: null,
          updated_at: at,
        }
      }),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

/** AeoRunClaimed × n (distinct runs): one update, each row guarded by its revision (see updateRun). */
async function updateClaimed(db: ReadDb, events: readonly EventOf<'AeoRunClaimed'>[]): Promise<void> {
  const col = <T>(f: (e: EventOf<'AeoRunClaimed'>) => T) => events.map(f)
  const claims = sql<{
    id: number
    agent_id: string
    agent_org_id: number | null
    attempt: number
    lease: Date
    at: Date
    revision: number
  }>`(
    select * from unnest(
      ${col((e) => e.data.run_id)}::bigint[], ${col((e) => e.data.agent_id)}::text[], ${col((e) => e.data.agent_org_id)}::bigint[],
      ${col((e) => e.data.attempt)}::integer[], ${col((e) => e.data.lease_expires_at)}::timestamptz[],
      ${col((e) => occurredAt(e).toISOString())}::timestamptz[], ${col((e) => Number(e.revision))}::bigint[]
    ) as u(id, agent_id, agent_org_id, attempt, lease, at, revision))`
  await db
    .updateTable('aeo_runs')
    .from(claims.as('v'))
    .set({
      status: 'claimed',
      agent_id: sql`v.agent_id`,
      agent_org_id: sql`v.agent_org_id`,
      attempts: sql`v.attempt`,
      lease_expires_at: sql`v.lease`,
      retry_at: null,
      claimed_at: sql`v.at`,
      revision: sql`v.revision`,
      updated_at: sql`v.at`,
    })
    .whereRef('aeo_runs.id', '=', 'v.id')
    .whereRef('aeo_runs.revision', '<', 'v.revision')
    .execute()
}

/**
 * The events in order, where each maximal stretch of AeoRunQueued (or AeoRunClaimed) events of distinct
 * runs is one statement, and anything else is its own write. Stretches break at a second event of the same
 * run, so the effect is exactly that of the events applied one by one.
 */
async function applyRunEvents(db: ReadDb, events: readonly ProjectedEvent[]): Promise<void> {
  let i = 0
  while (i < events.length) {
    const event = events[i]!
    if (event.type === 'AeoRunQueued') {
      const segment = segmentOf(events, i, 'AeoRunQueued')
      await insertQueued(db, segment)
      i += segment.length
    } else if (event.type === 'AeoRunClaimed') {
      const segment = segmentOf(events, i, 'AeoRunClaimed')
      await updateClaimed(db, segment)
      i += segment.length
    } else {
      await applyHandler(otherWrites, db, event)
      i++
    }
  }
}

/** The writes of the events that are not segmented, one at a time. */
const otherWrites: EventHandlers = {
  async AeoCadenceSet(db, event) {
    const d = event.data
    const values = {
      enabled: d.enabled,
      samples_per_month: d.samples_per_month,
      engines: d.engines as string[],
      geo_state: d.geo_state,
      updated_at: occurredAt(event),
    }
    await db
      .insertInto('aeo_cadences')
      .values({ client_id: d.client_id, org_id: orgIdOf(event), ...values })
      .onConflict((oc) => oc.column('client_id').doUpdateSet(values))
      .execute()
  },
  async AeoRunStarted(db, event) {
    await updateRun(db, event, { status: 'running' })
  },
  async AeoRunCompleted(db, event) {
    await updateRun(db, event, {
      status: 'done',
      capture_id: event.data.capture_id,
      error: null,
      lease_expires_at: null,
      finished_at: occurredAt(event),
    })
  },
  async AeoRunFailed(db, event) {
    const d = event.data
    await updateRun(
      db,
      event,
      d.retry
        ? {
            status: 'queued',
            error: d.error,
            attempts: d.attempt,
            agent_id: null,
            agent_org_id: null,
            lease_expires_at: null,
            claimed_at: null,
            retry_at: d.retry_at ?? null,
          }
        : { status: 'failed', error: d.error, attempts: d.attempt, lease_expires_at: null, finished_at: occurredAt(event) },
    )
  },
  async AeoRunClaimExpired(db, event) {
    await updateRun(db, event, {
      status: 'queued',
      error: 'claim expired',
      agent_id: null,
      agent_org_id: null,
      lease_expires_at: null,
      claimed_at: null,
    })
  },
  async AeoRunCancelled(db, event) {
    await updateRun(db, event, { status: 'cancelled', lease_expires_at: null, retry_at: null, finished_at: occurredAt(event) })
  },
  /** dedupe_aeo_queries: runs of the merged questions now belong to the canonical one. */
  async AeoQuestionsMerged(db, event) {
    const d = event.data
    await db
      .updateTable('aeo_runs')
      .set({ query_id: d.canonical_id })
      .where('client_id', '=', d.client_id)
      .where('query_id', 'in', d.merged_ids)
      .execute()
  },
  async AeoAgentRegistered(db, event) {
    await upsertAgent(db, event, event.data.capabilities)
  },
  async AeoAgentCapabilitiesChanged(db, event) {
    await upsertAgent(db, event, event.data.capabilities)
  },
  async AeoAgentSeen(db, event) {
    await upsertAgent(db, event, null)
  },
}

export const aeoRunsProjector: Projector = {
  name: 'aeo_runs',
  handles: [...SEGMENTED, ...typesOf(otherWrites)],
  apply: applyRunEvents,
}
