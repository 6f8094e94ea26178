import type { ClientState } from '../../domain/clients/client.js'
import {
  clientMonth,
  unfinishedItems,
  type ClientMonthCommand,
  type ClientMonthState,
  type ItemFields,
  type NewActionItem,
} from '../../domain/planning/action-items/client-month.js'
import type { ActionItemEvent, ActionItemStatus } from '../../domain/planning/action-items/events.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type CommandOutcome, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

type Outcome = CommandOutcome<ClientMonthState, ActionItemEvent>

/** An item to add, before its id is allocated. */
export type ActionItemInput = Omit<NewActionItem, 'item_id'>

/** Who and which month: the client is checked writable and in the caller's organization (null: any). */
export interface ClientMonthTarget {
  readonly clientId: number
  readonly callerOrgId: number | null
  readonly month: string | null
}

/** Every event carries the client's organization, so `ops replay --org` and the export include it. */
function run(
  deps: WriteDeps,
  context: CommandContext,
  owner: ClientState,
  month: string | null,
  command: ClientMonthCommand,
): Promise<Outcome> {
  return handleCommand(deps, { aggregate: clientMonth, id: { clientId: owner.id, month }, command, context, orgId: owner.orgId })
}

/** The month's items as the log holds them (deleted ones included). */
export function loadClientMonth(deps: Pick<WriteDeps, 'store'>, clientId: number, month: string | null): Promise<ClientMonthState> {
  return loadState(deps.store, clientMonth, { clientId, month })
}

export interface AddedItems {
  /** Ids of the items added now. */
  readonly added: readonly number[]
  /** Every input's item id by its source key: added now or held already (inputs without a key: added only). */
  readonly bySourceKey: ReadonlyMap<string, number>
  readonly position: Position | null
}

/**
 * Adds items to a client's month. An item whose source key the month already holds (even one deleted since)
 * is not added again, so the strategist, retried or run twice, adds each finding once. A closed month refuses
 * new items (409 action_item_month_closed). Ids are allocated per call; a duplicate leaves its id unused.
 */
export async function addActionItems(
  deps: WriteDeps,
  context: CommandContext,
  target: ClientMonthTarget,
  inputs: readonly ActionItemInput[],
): Promise<AddedItems> {
  const owner = await writableClient(deps.store, target.clientId, target.callerOrgId)
  const ids = await deps.ids.nextMany('action_item', inputs.length)
  const items = inputs.map((input, i) => ({ ...input, item_id: ids[i]! }))
  const outcome = await run(deps, context, owner, target.month, { type: 'AddItems', client_id: owner.id, month: target.month, items })
  const added = outcome.events.flatMap((e) => (e.type === 'ActionItemAdded' ? [e.data.item_id] : []))
  return { added, bySourceKey: outcome.state.bySourceKey, position: outcome.position }
}

/** update_action_item: the named fields change; the same values again change nothing. */
export async function updateActionItem(
  deps: WriteDeps,
  context: CommandContext,
  target: ClientMonthTarget & { readonly itemId: number },
  fields: Partial<ItemFields>,
): Promise<Position | null> {
  const owner = await writableClient(deps.store, target.clientId, target.callerOrgId)
  return (await run(deps, context, owner, target.month, { type: 'UpdateItem', item_id: target.itemId, fields })).position
}

/** set_action_item_status (the action_item.status_changed webhook); the same status again changes nothing. */
export async function setActionItemStatus(
  deps: WriteDeps,
  context: CommandContext,
  target: ClientMonthTarget & { readonly itemId: number },
  change: { readonly status: ActionItemStatus; readonly note?: string; readonly siteEditId?: number | null },
): Promise<{ changed: boolean; position: Position | null }> {
  const owner = await writableClient(deps.store, target.clientId, target.callerOrgId)
  const outcome = await run(deps, context, owner, target.month, {
    type: 'SetStatus',
    item_id: target.itemId,
    status: change.status,
    note: change.note ?? '',
    site_edit_id: change.siteEditId ?? null,
    now: deps.clock().toISOString(),
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}

/**
 * delete_action_items_for_month (`itemIds` 'all') or a person's delete of some items: live items whose status
 * is not in `preserve` are deleted. Answers how many were.
 */
export async function deleteActionItems(
  deps: WriteDeps,
  context: CommandContext,
  target: ClientMonthTarget,
  what: { readonly itemIds: readonly number[] | 'all'; readonly preserve: readonly ActionItemStatus[] },
): Promise<{ deleted: number; position: Position | null }> {
  const owner = await writableClient(deps.store, target.clientId, target.callerOrgId)
  const outcome = await run(deps, context, owner, target.month, { type: 'DeleteItems', item_ids: what.itemIds, preserve: what.preserve })
  return { deleted: outcome.events.length, position: outcome.position }
}

export interface ClosedMonth {
  readonly month: string
  readonly nextMonth: string
  /** Unfinished items carried: old id → the new item's id in the next month. */
  readonly carried: readonly { item_id: number; new_item_id: number }[]
  /** false: it was closed already (nothing changed now). */
  readonly closedNow: boolean
  readonly position: Position | null
}

/**
 * Closes a client's month: its unfinished items (pending, in progress) are added to `nextMonth` as new items
 * (source carry_over, key `carry:<old id>`, carried_from_item_id), then ActionItemMonthClosed records the
 * mapping on the old month. Two streams, so two appends, in the order that makes a crash between them safe:
 * run again, the next month already holds the carried keys (nothing added twice) and the close is recorded
 * with the ids they got. Closing a closed month changes nothing.
 */
export async function closeActionItemMonth(
  deps: WriteDeps,
  context: CommandContext,
  target: ClientMonthTarget & {
    readonly month: string
    readonly nextMonth: string
    readonly budgetHours: number | null
    readonly jobId?: number | null
  },
): Promise<ClosedMonth> {
  const owner = await writableClient(deps.store, target.clientId, target.callerOrgId)
  const old = await loadClientMonth(deps, owner.id, target.month)
  if (old.closed) return { month: target.month, nextMonth: target.nextMonth, carried: [], closedNow: false, position: null }
  const unfinished = unfinishedItems(old)
  const carriedInputs: ActionItemInput[] = unfinished.map((item) => ({
    action_type: item.actionType,
    page_url: item.pageUrl,
    description: item.description,
    tier: item.tier,
    hours: item.hours,
    impact: null,
    source: { kind: 'carry_over', id: item.id, by: '' },
    source_key: `carry:${item.id}`,
    carried_from_item_id: item.id,
    job_id: target.jobId ?? null,
  }))
  const next =
    carriedInputs.length === 0
      ? { bySourceKey: new Map<string, number>() }
      : await addActionItems(deps, context, { clientId: owner.id, callerOrgId: target.callerOrgId, month: target.nextMonth }, carriedInputs)
  const carried = unfinished.flatMap((item) => {
    const newId = next.bySourceKey.get(`carry:${item.id}`)
    return newId === undefined ? [] : [{ item_id: item.id, new_item_id: newId }]
  })
  const outcome = await run(deps, context, owner, target.month, {
    type: 'CloseMonth',
    client_id: owner.id,
    month: target.month,
    next_month: target.nextMonth,
    carried,
    budget_hours: target.budgetHours,
  })
  return { month: target.month, nextMonth: target.nextMonth, carried, closedNow: outcome.events.length > 0, position: outcome.position }
}
