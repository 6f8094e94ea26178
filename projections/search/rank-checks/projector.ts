import { sql } from 'kysely'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/** Failed tasks a check lists (get_rank_check); more are counted in tasks_failed only. */
export const MAX_FAILED_TASKS_LISTED = 50

/**
 * rank_cadences: one row per client that set a cadence. rank_checks: one row per check, its status, counts
 * and lease as its last event says; counts in the events are totals, so every write sets absolute values
 * and a redelivered event changes nothing. A failed task is added to the check's list once (by its key);
 * a new take of the check (a resume) starts the list again, since it retries those tasks.
 */
export const rankChecksProjector: Projector = eachEvent({
  name: 'search_rank_checks',
  handlers: {
    async RankCadenceSet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('rank_cadences')
        .values({ client_id: d.client_id, org_id: orgIdOf(event), frequency: d.frequency, devices: d.devices, updated_at: at })
        .onConflict((oc) => oc.column('client_id').doUpdateSet({ frequency: d.frequency, devices: d.devices, updated_at: at }))
        .execute()
    },
    async RankCheckQueued(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('rank_checks')
        .values({
          id: d.check_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          date: d.date,
          trigger: d.trigger,
          status: 'queued',
          devices: d.devices,
          keyword_count: null,
          location_count: null,
          tasks_total: null,
          provider: null,
          worker: null,
          lease_expires_at: null,
          error_code: null,
          error_message: null,
          queued_at: at,
          started_at: null,
          finished_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async RankCheckPlanned(db, event) {
      const d = event.data
      await db
        .updateTable('rank_checks')
        .set({
          keyword_count: d.keyword_ids.length,
          location_count: d.location_ids.length,
          devices: d.devices,
          tasks_total: d.tasks_total,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.check_id)
        .execute()
    },
    async RankCheckStarted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('rank_checks')
        .set({
          status: 'running',
          attempt: d.attempt,
          provider: d.provider,
          worker: d.worker,
          lease_expires_at: d.lease_expires_at,
          tasks_done: d.tasks_recorded,
          tasks_failed: 0,
          failed_tasks: '[]',
          started_at: sql<Date>`coalesce(started_at, ${at})`,
          updated_at: at,
        })
        .where('id', '=', d.check_id)
        .execute()
    },
    async RankCheckProgressed(db, event) {
      const d = event.data
      await db
        .updateTable('rank_checks')
        .set({
          lease_expires_at: d.lease_expires_at,
          tasks_done: d.tasks_done,
          tasks_failed: d.tasks_failed,
          provider_calls: d.provider_calls,
          retries: d.retries,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.check_id)
        .execute()
    },
    async RankCheckTaskFailed(db, event) {
      const d = event.data
      const key = { keyword_id: d.keyword_id, location_id: d.location_id, device: d.device }
      const entry = JSON.stringify({ ...key, error_code: d.error.code, message: d.error.message, tries: d.tries })
      // Listed once per task (a redelivery finds it there), and at most MAX_FAILED_TASKS_LISTED of them.
      await db
        .updateTable('rank_checks')
        .set({
          failed_tasks: sql`case
            when failed_tasks @> jsonb_build_array(${JSON.stringify(key)}::jsonb)
              or jsonb_array_length(failed_tasks) >= ${MAX_FAILED_TASKS_LISTED}
            then failed_tasks
            else failed_tasks || jsonb_build_array(${entry}::jsonb) end`,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.check_id)
        .execute()
    },
    async RankCheckCompleted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('rank_checks')
        .set({
          status: 'completed',
          tasks_done: d.tasks_done,
          tasks_failed: d.tasks_failed,
          provider_calls: d.provider_calls,
          retries: d.retries,
          lease_expires_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', d.check_id)
        .execute()
    },
    async RankCheckFailed(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('rank_checks')
        .set({
          status: 'failed',
          error_code: d.error.code,
          error_message: d.error.message,
          tasks_done: d.tasks_done,
          tasks_failed: d.tasks_failed,
          provider_calls: d.provider_calls,
          retries: d.retries,
          lease_expires_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', d.check_id)
        .execute()
    },
  },
})

/** The rank-checks projectors. */
export const rankChecksProjectors: readonly Projector[] = [rankChecksProjector]
