import { sql, type Kysely } from 'kysely'
import type { EventStore } from '../../commands/event-store/port.js'
import type { ReadDb } from '../../projections/tables.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * What GET /metrics reports about the whole service, read from the shared databases at scrape time, so any
 * API process answers for every process (a split deployment's processors have no HTTP server of their own).
 */
export interface ServiceSnapshot {
  /** Per projection group: events in the log after its checkpoint (null: the store cannot count, EventStoreDB), and the age of the oldest of them. */
  readonly projections: readonly { readonly group: string; readonly lagEvents: number | null; readonly lagSeconds: number }[]
  /** Events in the log: what the projections applied plus what they have not yet (applied only, when the store cannot count). */
  readonly eventsInLog: number
  /** job_work rows by status (a finished job's row is deleted). */
  readonly jobs: Readonly<Record<string, number>>
  /** Unfinished webhook_deliveries rows by status. */
  readonly webhookDeliveries: Readonly<Record<string, number>>
}

export interface ServiceSnapshotDeps {
  readonly read: ReadDb
  /** The public schema: the processors' work tables. */
  readonly db: Kysely<WorkTables>
  readonly store: EventStore
}

/** Statuses always reported, at 0 when empty, so a dashboard's series do not vanish when a queue drains. */
export const JOB_STATUSES = ['queued', 'running'] as const
export const OPEN_DELIVERY_STATUSES = ['pending', 'in_flight'] as const

/** Reads the snapshot. Throws when a database cannot be reached (the caller reports that instead). */
export async function readServiceSnapshot(deps: ServiceSnapshotDeps, now: Date): Promise<ServiceSnapshot> {
  const [checkpoints, jobs, deliveries] = await Promise.all([
    deps.read.selectFrom('projection_checkpoint').select(['group_name', 'position', 'events_applied']).execute(),
    countBy(sql`select status, count(*)::int as n from job_work group by status`, deps.db, JOB_STATUSES),
    countBy(
      sql`select status, count(*)::int as n from webhook_deliveries where finished_at is null group by status`,
      deps.db,
      OPEN_DELIVERY_STATUSES,
    ),
  ])
  const projections = await Promise.all(
    checkpoints.map(async (row) => {
      const after = row.position ?? undefined
      const [lagEvents, oldest] = await Promise.all([deps.store.countAfter(after), firstEventAfter(deps.store, after)])
      const lagSeconds = oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0
      return { group: row.group_name, lagEvents, lagSeconds, applied: Number(row.events_applied) }
    }),
  )
  // The main group sees every event; the log's size is what it applied plus what it has still to apply.
  const main = projections.find((p) => p.group === 'main') ?? projections[0]
  const eventsInLog = main ? main.applied + (main.lagEvents ?? 0) : 0
  return { projections: projections.map(({ applied: _applied, ...p }) => p), eventsInLog, jobs, webhookDeliveries: deliveries }
}

async function firstEventAfter(store: EventStore, after: string | undefined): Promise<Date | null> {
  for await (const event of store.readAll({ after, maxCount: 1 })) return event.recordedAt
  return null
}

async function countBy(query: ReturnType<typeof sql>, db: Kysely<WorkTables>, always: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(always.map((status) => [status, 0]))
  const { rows } = await query.execute(db)
  for (const row of rows as { status: string; n: number }[]) counts[row.status] = row.n
  return counts
}
