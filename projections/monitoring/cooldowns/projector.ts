import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * client_cooldowns: one row per client and reason, as its last event says. A set writes every column (so a
 * redelivered set changes nothing); a clear only ends a row set at or before it, so a clear redelivered
 * after a later set leaves that set standing. Expiry writes nothing: readers compare `until` with now.
 */
const clientCooldownsProjector: Projector = eachEvent({
  name: 'monitoring_cooldowns',
  handlers: {
    async ClientCooldownSet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      const row = { until: d.until, note: d.note, set_at: at, cleared_at: null, updated_at: at }
      await db
        .insertInto('client_cooldowns')
        .values({ client_id: d.client_id, org_id: orgIdOf(event), reason: d.reason, ...row })
        .onConflict((oc) => oc.columns(['client_id', 'reason']).doUpdateSet(row))
        .execute()
    },
    async ClientCooldownCleared(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('client_cooldowns')
        .set({ cleared_at: at, updated_at: at })
        .where('client_id', '=', event.data.client_id)
        .where('reason', '=', event.data.reason)
        .where('set_at', '<=', at)
        .execute()
    },
  },
})

/** The cooldowns sub-area's projectors. */
export const cooldownsProjectors: readonly Projector[] = [clientCooldownsProjector]
