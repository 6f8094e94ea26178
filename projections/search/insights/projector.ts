import type { Updateable } from 'kysely'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type ProjectedEvent, type Projector } from '../../projector.js'
import { actorOf } from '../../site-edits/projector.js'
import type { ReadDb } from '../../tables.js'
import type { MetaOptimizationsTable, SeoInsightsTable } from './tables.js'

/*
 * seo_insights and meta_optimizations: one row per insight and per optimization. The first event inserts
 * (a redelivery finds the row and does nothing); every later write is guarded by the stream revision, so a
 * redelivered older event never overwrites a newer one (a status change redelivered after the resolve).
 */

async function updateInsight(
  db: ReadDb,
  event: ProjectedEvent & { readonly data: { readonly insight_id: number } },
  changes: Updateable<SeoInsightsTable>,
): Promise<void> {
  const revision = Number(event.revision)
  await db
    .updateTable('seo_insights')
    .set({ ...changes, revision, updated_at: occurredAt(event) })
    .where('id', '=', event.data.insight_id)
    .where('revision', '<', revision)
    .execute()
}

async function updateOptimization(
  db: ReadDb,
  event: ProjectedEvent & { readonly data: { readonly optimization_id: number } },
  changes: Updateable<MetaOptimizationsTable>,
): Promise<void> {
  const revision = Number(event.revision)
  await db
    .updateTable('meta_optimizations')
    .set({ ...changes, revision, updated_at: occurredAt(event) })
    .where('id', '=', event.data.optimization_id)
    .where('revision', '<', revision)
    .execute()
}

export const seoInsightsProjector: Projector = eachEvent({
  name: 'seo_insights',
  handlers: {
    async SeoInsightRaised(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('seo_insights')
        .values({
          id: d.insight_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          insight_type: d.insight_type,
          source: d.source,
          natural_key: d.natural_key,
          severity: d.severity,
          summary: d.summary,
          keyword_id: d.keyword_id,
          page_id: d.page_id,
          evidence: JSON.stringify(d.evidence),
          status: 'open',
          note: '',
          revision: Number(event.revision),
          raised_at: at,
          status_changed_at: null,
          resolved_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SeoInsightResolved(db, event) {
      await updateInsight(db, event, { status: 'resolved', resolved_at: occurredAt(event) })
    },
    async SeoInsightStatusChanged(db, event) {
      await updateInsight(db, event, { status: event.data.status, note: event.data.note, status_changed_at: occurredAt(event) })
    },
  },
})

export const metaOptimizationsProjector: Projector = eachEvent({
  name: 'meta_optimizations',
  handlers: {
    async MetaOptimizationProposed(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('meta_optimizations')
        .values({
          id: d.optimization_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          page_id: d.page_id,
          page_url: d.page_url,
          insight_id: d.insight_id,
          query: d.query,
          location: d.location,
          current_title: d.current_title,
          current_description: d.current_description,
          proposed_title: d.proposed_title,
          proposed_description: d.proposed_description,
          writer: d.writer,
          status: 'proposed',
          edit_id: null,
          proposed_by: actorOf(event),
          rejected_by: null,
          reject_reason: null,
          revision: Number(event.revision),
          created_at: at,
          staged_at: null,
          applied_at: null,
          rejected_at: null,
          rolled_back_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async MetaOptimizationStaged(db, event) {
      await updateOptimization(db, event, { status: 'staged', edit_id: event.data.edit_id, staged_at: occurredAt(event) })
    },
    async MetaOptimizationApplied(db, event) {
      await updateOptimization(db, event, { status: 'applied', edit_id: event.data.edit_id, applied_at: occurredAt(event) })
    },
    async MetaOptimizationRolledBack(db, event) {
      await updateOptimization(db, event, { status: 'rolled_back', rolled_back_at: occurredAt(event) })
    },
    async MetaOptimizationRejected(db, event) {
      await updateOptimization(db, event, {
        status: 'rejected',
        rejected_by: event.data.rejected_by,
        reject_reason: event.data.reason,
        rejected_at: occurredAt(event),
      })
    },
  },
})

/** The insights projectors. */
export const insightsProjectors: readonly Projector[] = [seoInsightsProjector, metaOptimizationsProjector]
