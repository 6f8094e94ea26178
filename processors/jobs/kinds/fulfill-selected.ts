import { writableClient } from '../../../commands/aeo/capture-facts.js'
import { loadClientMonth } from '../../../commands/planning/action-items.js'
import { isAutomatable } from '../../../domain/planning/action-items/action-types.js'
import type { ClientMonthState } from '../../../domain/planning/action-items/client-month.js'
import type { JobHandler } from '../handler.js'
import { addOutcome, autoApplies, carryOutItem, hasEdits, type CarryResult } from '../../planning/execution/carry-out-item.js'

/**
 * fulfill_selected: exactly the given action items of the job's client (any tier) carried out as site edits
 * (processors/planning/execution/carry-out-item.ts), in the order given (an id named twice once). Each item that cannot be is refused in the
 * result's `skipped`, the job going on: an id that is not an item of this client (another client's, another
 * organization's, deleted or unknown: all answer alike), an action type the service cannot carry out, an item
 * that is neither pending nor in progress with edits the service staged (those are continued: applied when
 * auto-apply is on, then done). Where each item lives (its month) is read from the action_items read model;
 * its status from the month's stream.
 */
export const fulfillSelectedHandler: JobHandler<'fulfill_selected'> = async (ctx) => {
  const { job } = ctx
  const clientId = job.clientId!
  const owner = await writableClient(ctx.store, clientId, job.orgId)
  const ids = [...new Set(job.payload.action_item_ids)]
  const rows = await ctx.read
    .selectFrom('action_items')
    .select(['id', 'client_id', 'org_id', 'month', 'deleted_at'])
    .where('id', 'in', ids)
    .execute()
  const byId = new Map(rows.map((r) => [Number(r.id), r]))
  const months = new Map<string, ClientMonthState>()
  const monthState = async (month: string | null) => {
    const key = month ?? ''
    let state = months.get(key)
    if (!state) {
      state = await loadClientMonth(ctx.write, clientId, month)
      months.set(key, state)
    }
    return state
  }
  const autoApply = autoApplies(owner)
  const seenMonths = new Set<string | null>()
  const result: CarryResult = { client_id: clientId, month: null, staged: 0, applied: 0, skipped: [], edits: [] }
  for (const [index, id] of ids.entries()) {
    ctx.signal.throwIfAborted()
    await ctx.progress(index, ids.length, `item ${id}`)
    const row = byId.get(id)
    const item =
      row && row.deleted_at === null && Number(row.client_id) === clientId && Number(row.org_id) === job.orgId
        ? (await monthState(row.month)).items.get(id)
        : undefined
    if (!row || !item || item.deleted) {
      result.skipped.push({ item_id: id, reason: `action item ${id} not found for client ${clientId}` })
      continue
    }
    if (!isAutomatable(item.actionType)) {
      result.skipped.push({ item_id: id, reason: `action type ${item.actionType} is not one the service can carry out` })
      continue
    }
    const continued = item.status === 'in_progress' && (await hasEdits(ctx.read, clientId, id))
    if (item.status !== 'pending' && !continued) {
      result.skipped.push({
        item_id: id,
        reason: `the item is ${item.status}: only pending items (and items in progress with the service's staged edits) are carried out`,
      })
      continue
    }
    seenMonths.add(row.month)
    const outcome = await carryOutItem(
      ctx,
      owner,
      {
        itemId: id,
        month: row.month,
        actionType: item.actionType,
        pageUrl: item.pageUrl,
        description: item.description,
        sourceKey: item.sourceKey,
        status: item.status === 'pending' ? 'pending' : 'in_progress',
      },
      autoApply,
    )
    addOutcome(result, id, outcome)
  }
  await ctx.progress(ids.length, ids.length, 'done')
  // One month when the items carried out share it (the usual case); null when they span several or none.
  result.month = seenMonths.size === 1 ? [...seenMonths][0]! : null
  return { ...result, auto_apply: autoApply }
}
