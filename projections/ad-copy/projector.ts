import type { AdGroup } from '../../domain/ad-copy/events.js'
import { occurredAt, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'

/**
 * ad_copy_sets (one row per set) and ad_copy_ad_groups (its groups, in order). Idempotent: inserts that
 * find their row do nothing; approve and reject set absolute values.
 */
export const adCopyProjector: Projector = eachEvent({
  name: 'ad_copy',
  handlers: {
    async AdCopySetProposed(db, event) {
      const d = event.data as { set_id: number; client_id: number; job_id: number | null; ad_groups: AdGroup[] }
      const at = occurredAt(event)
      const org_id = event.metadata.org_id as number
      await db
        .insertInto('ad_copy_sets')
        .values({
          id: d.set_id,
          client_id: d.client_id,
          org_id,
          job_id: d.job_id,
          status: 'proposed',
          ad_group_count: d.ad_groups.length,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      await db
        .insertInto('ad_copy_ad_groups')
        .values(
          d.ad_groups.map((g, i) => ({
            id: g.ad_group_id,
            set_id: d.set_id,
            client_id: d.client_id,
            org_id,
            position: i + 1,
            name: g.name,
            service: g.service,
            area: g.area,
            headlines: JSON.stringify(g.headlines),
            descriptions: JSON.stringify(g.descriptions),
            keywords: JSON.stringify(g.keywords),
            final_url: g.final_url,
            writer: g.writer,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async AdCopySetApproved(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('ad_copy_sets')
        .set({ status: 'approved', approved_by: event.data.approved_by, approved_at: at, updated_at: at })
        .where('id', '=', event.data.set_id)
        .execute()
    },
    async AdCopySetRejected(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('ad_copy_sets')
        .set({
          status: 'rejected',
          rejected_by: event.data.rejected_by,
          rejection_reason: event.data.reason,
          rejected_at: at,
          updated_at: at,
        })
        .where('id', '=', event.data.set_id)
        .execute()
    },
  },
})
