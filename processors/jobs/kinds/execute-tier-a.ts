import { monthOfDate } from '../../../domain/shared/months.js'
import { writableClient } from '../../../commands/aeo/capture-facts.js'
import { loadClientMonth } from '../../../commands/planning/action-items.js'
import { isAutomatable } from '../../../domain/planning/action-items/action-types.js'
import { liveItems, type ItemState } from '../../../domain/planning/action-items/client-month.js'
import type { JobHandler } from '../handler.js'
import { addOutcome, autoApplies, carryOutItem, hasEdits, type CarryResult } from '../../planning/execution/carry-out-item.js'
import type { CarryContext } from '../../planning/execution/item-edits.js'

/**
 * execute_tier_a: the client's month (payload `month`, default the current one, UTC) — its pending tier A items
 * whose action type the service can carry out — carried out as site edits (processors/planning/execution/carry-out-item.ts), in the month's
 * order. The items are read from the month's stream, so the choice is the log's, not a lagging read model's.
 * Items in_progress with edits the service staged are continued too: their edits applied (auto-apply on now, a
 * cooldown over) and the items done, so a job killed between an apply and the item's status leaves nothing stuck.
 */
export const executeTierAHandler: JobHandler<'execute_tier_a'> = async (ctx) => {
  const month = ctx.job.payload.month ?? monthOfDate(ctx.clock())
  return carryOutMonth(ctx, ctx.job.clientId!, month, (done, total, message) => ctx.progress(done, total, message))
}

/** Progress of carrying out a month: items done of total. */
export type CarryProgress = (done: number, total: number, message: string) => Promise<void>

/**
 * The month's automatable tier A items carried out (execute_tier_a's work, exported for autopilot). Safe to run
 * again: done items are left, items in progress with staged edits continued, an item's edits never staged twice.
 */
export async function carryOutMonth(
  ctx: CarryContext,
  clientId: number,
  month: string,
  progress: CarryProgress = async () => {},
): Promise<CarryResult & { auto_apply: boolean }> {
  const { job } = ctx
  const owner = await writableClient(ctx.store, clientId, job.orgId)
  const state = await loadClientMonth(ctx.write, clientId, month)
  const candidates = liveItems(state).filter((i) => i.tier === 'A' && isAutomatable(i.actionType))
  const chosen: ItemState[] = []
  for (const item of candidates) {
    if (item.status === 'pending') chosen.push(item)
    else if (item.status === 'in_progress' && (await hasEdits(ctx.read, clientId, item.id))) chosen.push(item)
  }
  const autoApply = autoApplies(owner)
  const result: CarryResult = { client_id: clientId, month, staged: 0, applied: 0, skipped: [], edits: [] }
  for (const [index, item] of chosen.entries()) {
    ctx.signal.throwIfAborted()
    await progress(index, chosen.length, `item ${item.id} (${item.actionType})`)
    const outcome = await carryOutItem(
      ctx,
      owner,
      {
        itemId: item.id,
        month,
        actionType: item.actionType,
        pageUrl: item.pageUrl,
        description: item.description,
        sourceKey: item.sourceKey,
        status: item.status === 'pending' ? 'pending' : 'in_progress',
      },
      autoApply,
    )
    addOutcome(result, item.id, outcome)
  }
  await progress(chosen.length, chosen.length, 'done')
  return { ...result, auto_apply: autoApply }
}
