import { occurredAt, orgIdOf, type ProjectedEvent, type Projector } from '../projector.js'
import type { Updateable } from 'kysely'
import type { ReadDb } from '../tables.js'
import type { SiteEditsTable } from './tables.js'
import { eachEvent } from '../each-event.js'

/** `<actor kind>:<actor id>` of the event, e.g. `api_key:12` or `system:job-7`: who did it, as the log says. */
export function actorOf(event: ProjectedEvent): string {
  const actor = event.metadata.actor
  return `${actor?.kind ?? 'unknown'}:${actor?.id ?? ''}`
}

/** Every write after the first is guarded by the stream revision, so a redelivered event changes nothing. */
async function updateEdit(
  db: ReadDb,
  event: ProjectedEvent & { readonly data: { readonly edit_id: number } },
  changes: Updateable<SiteEditsTable>,
  countsAttempt = false,
): Promise<void> {
  const revision = Number(event.revision)
  let query = db.updateTable('site_edits').set({ ...changes, revision, updated_at: occurredAt(event) })
  if (countsAttempt) query = query.set((eb) => ({ apply_attempts: eb('apply_attempts', '+', 1) }))
  await query.where('id', '=', event.data.edit_id).where('revision', '<', revision).execute()
}

/** An apply attempt (succeeded or failed), once per event: count_site_edit_attempts_last_hour counts these rows. */
async function recordAttempt(
  db: ReadDb,
  event: ProjectedEvent & { readonly data: { readonly edit_id: number } },
  succeeded: boolean,
): Promise<void> {
  const edit = await db.selectFrom('site_edits').select(['client_id']).where('id', '=', event.data.edit_id).executeTakeFirst()
  if (!edit) return
  await db
    .insertInto('site_edit_attempts')
    .values({
      event_id: event.id,
      edit_id: event.data.edit_id,
      client_id: edit.client_id,
      org_id: orgIdOf(event),
      succeeded,
      attempted_at: occurredAt(event),
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute()
}

export const siteEditsProjector: Projector = eachEvent({
  name: 'site_edits',
  handlers: {
    async SiteEditStaged(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('site_edits')
        .values({
          id: d.edit_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          operation: d.operation,
          page_url: d.page_url,
          page_id: d.page_id,
          payload: d.payload,
          status: 'proposed',
          job_id: d.job_id,
          staged_by: actorOf(event),
          revision: Number(event.revision),
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SiteEditApplied(db, event) {
      const d = event.data
      await recordAttempt(db, event, true)
      await updateEdit(
        db,
        event,
        {
          status: 'applied',
          approved_by: d.approved_by,
          applied_by: actorOf(event),
          applied_at: occurredAt(event),
          before_snapshot_id: d.before_snapshot_id,
          after_snapshot_id: d.after_snapshot_id,
          last_error: null,
        },
        true,
      )
    },
    async SiteEditApplyFailed(db, event) {
      await recordAttempt(db, event, false)
      await updateEdit(db, event, { last_error: event.data.error }, true)
    },
    async SiteEditRolledBack(db, event) {
      await updateEdit(db, event, {
        status: 'rolled_back',
        rolled_back_by: actorOf(event),
        rolled_back_at: occurredAt(event),
        restored_snapshot_id: event.data.restored_snapshot_id,
      })
    },
  },
})
