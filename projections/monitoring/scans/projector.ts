import { runByService } from '../../../domain/monitoring/scans/client-scans.js'
import type { ScanCounts } from '../../../domain/monitoring/scans/events.js'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * site_scans: one row per scan, its status, totals and lease as its last event says (totals in the events are
 * absolute, so a redelivered event changes nothing); site_scan_pages: one row per scan and URL, inserted once;
 * scan_cadences: one row per client that set a cadence.
 */
const counts = (t: ScanCounts) => ({ ...t })

export const scansProjector: Projector = eachEvent({
  name: 'monitoring_scans',
  handlers: {
    async ScanCadenceSet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('scan_cadences')
        .values({ client_id: d.client_id, org_id: orgIdOf(event), frequency: d.frequency, scan_type: d.scan_type, updated_at: at })
        .onConflict((oc) => oc.column('client_id').doUpdateSet({ frequency: d.frequency, scan_type: d.scan_type, updated_at: at }))
        .execute()
    },
    async SiteScanQueued(db, event) {
      const d = event.data
      const at = occurredAt(event)
      // An agent's session runs from the moment it is opened; the service's scans wait for a worker.
      const byService = runByService(d.scan_type)
      await db
        .insertInto('site_scans')
        .values({
          id: d.scan_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          scan_type: d.scan_type,
          trigger: d.trigger,
          date: d.date,
          status: byService ? 'queued' : 'running',
          worker: null,
          lease_expires_at: null,
          start_url: null,
          error_code: null,
          error_message: null,
          queued_at: at,
          started_at: byService ? null : at,
          finished_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SiteScanStarted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('site_scans')
        .set({
          status: 'running',
          attempt: d.attempt,
          worker: d.worker,
          lease_expires_at: d.lease_expires_at,
          start_url: d.start_url,
          updated_at: at,
        })
        .where('id', '=', d.scan_id)
        .execute()
      // The first take's time is when it started; a resume keeps it.
      await db.updateTable('site_scans').set({ started_at: at }).where('id', '=', d.scan_id).where('started_at', 'is', null).execute()
    },
    async SiteScanPagesRecorded(db, event) {
      const d = event.data
      const orgId = orgIdOf(event)
      if (d.pages.length > 0) {
        await db
          .insertInto('site_scan_pages')
          .values(d.pages.map((p) => ({ scan_id: d.scan_id, client_id: d.client_id, org_id: orgId, ...p })))
          .onConflict((oc) => oc.columns(['scan_id', 'url']).doNothing())
          .execute()
      }
      await db
        .updateTable('site_scans')
        .set({ ...counts(d.totals), lease_expires_at: d.lease_expires_at, updated_at: occurredAt(event) })
        .where('id', '=', d.scan_id)
        .execute()
    },
    async SiteScanSitemapRead(db, event) {
      const d = event.data
      await db
        .updateTable('site_scans')
        .set({ ...counts(d.totals), updated_at: occurredAt(event) })
        .where('id', '=', d.scan_id)
        .execute()
    },
    async SiteScanCompleted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('site_scans')
        .set({
          status: 'completed',
          ...counts(d.totals),
          keywords_checked: d.keywords_checked,
          pages_scanned: d.pages_scanned,
          lease_expires_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', d.scan_id)
        .execute()
    },
    async SiteScanFailed(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('site_scans')
        .set({
          status: 'failed',
          ...counts(d.totals),
          error_code: d.error.code,
          error_message: d.error.message,
          lease_expires_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', d.scan_id)
        .execute()
    },
    async SiteScanCancelled(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('site_scans')
        .set({ status: 'cancelled', ...counts(d.totals), lease_expires_at: null, finished_at: at, updated_at: at })
        .where('id', '=', d.scan_id)
        .execute()
    },
  },
})

/** The scans sub-area's projectors. */
export const scansProjectors: readonly Projector[] = [scansProjector]
