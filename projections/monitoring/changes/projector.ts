import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/** site_changes: one row per SiteChangeDetected, never updated; applied twice, the same row. */
export const siteChangesProjector: Projector = eachEvent({
  name: 'site_changes',
  handlers: {
    async SiteChangeDetected(db, event) {
      const d = event.data
      await db
        .insertInto('site_changes')
        .values({
          id: d.change_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          page_id: d.page_id,
          url: d.url,
          kind: d.kind,
          severity: d.severity,
          before: d.before,
          after: d.after,
          words_changed: d.words_changed,
          attribution: d.attribution,
          edit_id: d.edit_id,
          snapshot_id: d.snapshot_id,
          previous_snapshot_id: d.previous_snapshot_id,
          detected_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
  },
})

/** The changes sub-area's projectors. */
export const siteChangesProjectors: readonly Projector[] = [siteChangesProjector]
