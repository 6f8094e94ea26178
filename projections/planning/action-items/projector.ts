import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * action_items and action_item_months_closed, event by event (items change a few times a month each).
 * Every write sets absolute values from the event, so a redelivered event leaves the same row: an add that
 * finds its row does nothing, an update or status change writes the fields as they now are, a delete marks
 * the row (kept so the id keeps answering 404 the same way and the history stays), and a month's close
 * records its row once and names, on each carried item, the item that continues it.
 */
const actionItemsProjector: Projector = eachEvent({
  name: 'planning_action_items',
  handlers: {
    async ActionItemAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('action_items')
        .values({
          id: d.item_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          month: d.month,
          action_type: d.action_type,
          page_url: d.page_url,
          description: d.description,
          status: 'pending',
          tier: d.tier,
          hours: d.hours,
          impact: d.impact,
          source_kind: d.source.kind,
          source_id: d.source.id,
          source_by: d.source.by,
          source_key: d.source_key,
          carried_from_item_id: d.carried_from_item_id,
          carried_to_item_id: null,
          job_id: d.job_id,
          site_edit_id: null,
          note: '',
          completed_at: null,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing()) // applied twice: the same row
        .execute()
    },
    async ActionItemUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('action_items')
        .set({
          action_type: d.action_type,
          page_url: d.page_url,
          description: d.description,
          tier: d.tier,
          hours: d.hours,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.item_id)
        .execute()
    },
    async ActionItemStatusChanged(db, event) {
      const d = event.data
      await db
        .updateTable('action_items')
        .set({
          status: d.status,
          note: d.note,
          site_edit_id: d.site_edit_id,
          completed_at: d.completed_at, // null unless it became done
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.item_id)
        .execute()
    },
    async ActionItemDeleted(db, event) {
      const at = occurredAt(event)
      await db.updateTable('action_items').set({ deleted_at: at, updated_at: at }).where('id', '=', event.data.item_id).execute()
    },
    async ActionItemMonthClosed(db, event) {
      const d = event.data
      await db
        .insertInto('action_item_months_closed')
        .values({
          client_id: d.client_id,
          month: d.month,
          org_id: orgIdOf(event),
          next_month: d.next_month,
          carried_count: d.carried.length,
          budget_hours: d.budget_hours,
          done_hours: d.done_hours,
          closed_at: occurredAt(event),
        })
        .onConflict((oc) => oc.columns(['client_id', 'month']).doNothing()) // a month closes once
        .execute()
      for (const { item_id, new_item_id } of d.carried) {
        await db.updateTable('action_items').set({ carried_to_item_id: new_item_id }).where('id', '=', item_id).execute()
      }
    },
  },
})

/** The action items sub-area's projectors. */
export const actionItemsProjectors: readonly Projector[] = [actionItemsProjector]
