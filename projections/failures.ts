import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'

/** A failing projection group as health shows it. */
export interface ProjectionFailure {
  readonly failing_since: string
  readonly last_failed_at: string
  /** Attempts that failed in a row since failing_since. */
  readonly failures: number
  /** The last position applied before the failing batch (null: none yet). */
  readonly position: string | null
  readonly error: string
}

/** Longest error text kept: enough to name the projector, the event and the cause. */
const MAX_ERROR = 1000

/**
 * Records that the group's runner failed again. Best effort: when the database itself is what failed, there is
 * nowhere to write, and the runner's log says it.
 */
export async function recordProjectionFailure(
  db: Kysely<WorkTables>,
  input: { group: string; position: string | null; error: unknown; now: Date },
): Promise<void> {
  const message = (input.error instanceof Error ? input.error.message : String(input.error)).slice(0, MAX_ERROR)
  await db
    .insertInto('projection_failures')
    .values({
      group_name: input.group,
      failing_since: input.now,
      last_failed_at: input.now,
      failures: 1,
      position: input.position,
      error: message,
    })
    .onConflict((oc) =>
      oc.column('group_name').doUpdateSet((eb) => ({
        last_failed_at: eb.ref('excluded.last_failed_at'),
        failures: sql`projection_failures.failures + 1`,
        position: eb.ref('excluded.position'),
        error: eb.ref('excluded.error'),
      })),
    )
    .execute()
    .catch(() => undefined)
}

/** The group applied a batch: it is no longer failing. */
export async function clearProjectionFailure(db: Kysely<WorkTables>, group: string): Promise<void> {
  await db.deleteFrom('projection_failures').where('group_name', '=', group).execute()
}

/**
 * How recent the last failure must be for the group to count as failing. A failing runner retries every
 * second, so a stuck group's record stays fresh; a runner that recovered while no new event came to clear
 * the record (nothing to apply) stops refreshing it and no longer counts.
 */
export const FAILING_WINDOW_SECONDS = 30

/** The group's failure, when it failed within FAILING_WINDOW_SECONDS of `now`; null otherwise. */
export async function projectionFailure(db: Kysely<WorkTables>, group: string, now: Date): Promise<ProjectionFailure | null> {
  const row = await db
    .selectFrom('projection_failures')
    .select(['failing_since', 'last_failed_at', 'failures', 'position', 'error'])
    .where('group_name', '=', group)
    .where('last_failed_at', '>', sql<Date>`${now}::timestamptz - make_interval(secs => ${FAILING_WINDOW_SECONDS})`)
    .executeTakeFirst()
  if (!row) return null
  return {
    failing_since: row.failing_since.toISOString(),
    last_failed_at: row.last_failed_at.toISOString(),
    failures: row.failures,
    position: row.position,
    error: row.error,
  }
}
