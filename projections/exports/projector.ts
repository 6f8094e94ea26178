import { occurredAt, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'

/** `org_exports`: one row per produced export; expiry marks it (the row stays for the record, unlisted). */
export const exportsProjector: Projector = eachEvent({
  name: 'exports',
  handlers: {
    OrgExportProduced: async (db, event) => {
      const d = event.data
      await db
        .insertInto('org_exports')
        .values({
          job_id: d.job_id,
          org_id: d.org_id,
          filename: d.filename,
          path: d.path,
          size: d.size,
          sha256: d.sha256,
          tables: d.tables,
          rows: d.rows,
          position: d.position,
          created_at: d.created_at,
          expires_at: d.expires_at,
          expired_at: null,
        })
        .onConflict((oc) => oc.column('job_id').doNothing())
        .execute()
    },
    OrgExportExpired: async (db, event) => {
      await db
        .updateTable('org_exports')
        .set({ expired_at: occurredAt(event) })
        .where('job_id', '=', event.data.job_id)
        .where('expired_at', 'is', null)
        .execute()
    },
  },
})
