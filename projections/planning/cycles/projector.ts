import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * hour_budget_settings: one row per client and starting month, as the last HourBudgetSet for that month says.
 * The upsert only replaces a row set at or before the event, so a redelivered older setting leaves a later
 * one for the same month standing.
 */
const hourBudgetsProjector: Projector = eachEvent({
  name: 'planning_hour_budgets',
  handlers: {
    async HourBudgetSet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('hour_budget_settings')
        .values({ client_id: d.client_id, from_month: d.from_month, org_id: orgIdOf(event), hours: d.hours, set_at: at })
        .onConflict((oc) =>
          oc
            .columns(['client_id', 'from_month'])
            .doUpdateSet({ hours: d.hours, set_at: at })
            .where('hour_budget_settings.set_at', '<=', at),
        )
        .execute()
    },
  },
})

/** The hour budgets and cycles sub-area's projectors. */
export const cyclesProjectors: readonly Projector[] = [hourBudgetsProjector]
