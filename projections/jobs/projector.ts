import { occurredAt, orgIdOf, type ProjectedEvent, type Projector } from '../projector.js'
import type { Updateable } from 'kysely'
import type { ReadDb } from '../tables.js'
import type { JobsTable } from './tables.js'
import { eachEvent } from '../each-event.js'

/**
 * The `jobs` read model. Every write after the insert is guarded by the stream revision (`revision < event
 * revision`), so a replayed or redelivered event changes nothing and events apply in stream order only.
 */
async function updateJob(
  db: ReadDb,
  event: ProjectedEvent & { readonly data: { readonly job_id: number } },
  changes: Updateable<JobsTable>,
): Promise<void> {
  const revision = Number(event.revision)
  await db
    .updateTable('jobs')
    .set({ ...changes, revision, updated_at: occurredAt(event) })
    .where('id', '=', event.data.job_id)
    .where('revision', '<', revision)
    .execute()
}

const percentOf = (done: number, total: number) => (total > 0 ? Math.min(100, Math.round((done / total) * 1000) / 10) : 0)

export const jobsProjector: Projector = eachEvent({
  name: 'jobs',
  handlers: {
    JobRequested: async (db, event) => {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('jobs')
        .values({
          id: d.job_id,
          org_id: orgIdOf(event),
          kind: d.kind,
          client_id: d.client_id,
          group_id: d.group_id,
          meter: d.meter,
          status: 'queued',
          attempts: 0,
          cancel_requested: false,
          progress: null,
          result: null,
          error: null,
          failure_reason: null,
          revision: Number(event.revision),
          created_at: at,
          started_at: null,
          finished_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    JobStarted: (db, event) =>
      updateJob(db, event, {
        status: 'running',
        attempts: event.data.attempt,
        started_at: occurredAt(event),
        progress: JSON.stringify({ done: 0, total: 0, percent: 0, message: null }),
      }),
    JobProgressed: (db, event) => {
      const d = event.data
      return updateJob(db, event, {
        progress: JSON.stringify({ done: d.done, total: d.total, percent: percentOf(d.done, d.total), message: d.message }),
      })
    },
    JobCancelRequested: (db, event) => updateJob(db, event, { cancel_requested: true }),
    JobCompleted: (db, event) =>
      updateJob(db, event, { status: 'done', result: JSON.stringify(event.data.result), progress: null, finished_at: occurredAt(event) }),
    JobFailed: (db, event) =>
      updateJob(db, event, {
        status: 'failed',
        error: event.data.error,
        failure_reason: event.data.reason,
        progress: null,
        finished_at: occurredAt(event),
      }),
    JobCancelled: (db, event) =>
      updateJob(db, event, { status: 'cancelled', cancel_requested: true, progress: null, finished_at: occurredAt(event) }),
    JobInterrupted: (db, event) => updateJob(db, event, { status: 'queued', progress: null }),
  },
})
