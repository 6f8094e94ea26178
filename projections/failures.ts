import { sql, type Kysely } from 'kysely'

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
export async function recordProjectionFailure(db: Kysely<any>, input: { group: string; position: string | null; error: unknown; now: Date }): Promise<void> {
  const message = (input.error instanceof Error ? input.error.message : String(input.error)).slice(0, MAX_ERROR)
  await sql`
    insert into projection_failures (group_name, failing_since, last_failed_at, failures, position, error)
    values (${input.group}, ${input.now}, ${input.now}, 1, ${input.position}, ${message})
    on conflict (group_name) do update
      set last_failed_at = excluded.last_failed_at, failures = projection_failures.failures + 1,
          position = excluded.position, error = excluded.error`
    .execute(db)
    .catch(() => undefined)
}

/** The group applied a batch: it is no longer failing. */
export async function clearProjectionFailure(db: Kysely<any>, group: string): Promise<void> {
  await sql`delete from projection_failures where group_name = ${group}`.execute(db)
}

/**
 * How recent the last failure must be for the group to count as failing. A failing runner retries every
 * second, so a stuck group's record stays fresh; a runner that recovered while no new event came to clear
 * the record (nothing to apply) stops refreshing it and no longer counts.
 */
export const FAILING_WINDOW_SECONDS = 30

/** The group's failure, when it failed within FAILING_WINDOW_SECONDS of `now`; null otherwise. */
export async function projectionFailure(db: Kysely<any>, group: string, now: Date): Promise<ProjectionFailure | null> {
  const { rows } = await sql<{ failing_since: Date; last_failed_at: Date; failures: number; position: string | null; error: string }>`
    select failing_since, last_failed_at, failures, position, error from projection_failures
     where group_name = ${group} and last_failed_at > ${now}::timestamptz - make_interval(secs => ${FAILING_WINDOW_SECONDS})`.execute(db)
  const row = rows[0]
  if (!row) return null
  return { failing_since: row.failing_since.toISOString(), last_failed_at: row.last_failed_at.toISOString(), failures: row.failures, position: row.position, error: row.error }
}
