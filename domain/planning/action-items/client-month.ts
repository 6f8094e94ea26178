import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { ActionItemEvent, ActionItemSource, ActionItemStatus, ActionItemTier } from './events.js'

/**
 * A client's month of work: its action items and whether the month's cycle is closed. Stream
 * `action_items-<client_id>-<month>`, or `…-none` for items without a month (never closed).
 *
 *   pending ⇄ in_progress ⇄ done (completed_at) / skipped      any status may be set from any other
 *   open month ──CloseMonth (unfinished items carried into the next month)──▶ closed (takes no new items)
 */
export interface ClientMonthId {
  readonly clientId: number
  /** YYYY-MM, or null for items without a month. */
  readonly month: string | null
}

export const actionItemsStream = ({ clientId, month }: ClientMonthId) => `action_items-${clientId}-${month ?? 'none'}`

export interface ItemState {
  readonly id: number
  readonly actionType: string
  readonly pageUrl: string
  readonly description: string
  readonly tier: ActionItemTier
  readonly hours: number
  readonly status: ActionItemStatus
  readonly sourceKey: string | null
  readonly deleted: boolean
}

export interface ClientMonthState {
  readonly clientId: number
  readonly month: string | null
  /** Every item ever added, deleted ones included (their source keys stay held). */
  readonly items: ReadonlyMap<number, ItemState>
  readonly bySourceKey: ReadonlyMap<string, number>
  readonly closed: boolean
}

/** An item to add, its id allocated by the caller. */
export interface NewActionItem {
  readonly item_id: number
  readonly action_type: string
  readonly page_url: string
  readonly description: string
  readonly tier: ActionItemTier
  readonly hours: number
  readonly impact: number | null
  readonly source: ActionItemSource
  readonly source_key: string | null
  readonly carried_from_item_id: number | null
  readonly job_id: number | null
}

export interface ItemFields {
  readonly action_type: string
  readonly page_url: string
  readonly description: string
  readonly tier: ActionItemTier
  readonly hours: number
}

export type ClientMonthCommand =
  /** Adds the items whose source key the month does not hold yet (an item without a key is always added). */
  | { type: 'AddItems'; client_id: number; month: string | null; items: readonly NewActionItem[] }
  | { type: 'UpdateItem'; item_id: number; fields: Partial<ItemFields> }
  | { type: 'SetStatus'; item_id: number; status: ActionItemStatus; note: string; site_edit_id: number | null; now: string }
  /** Deletes the month's live items, except those whose status is in `preserve`. */
  | { type: 'DeleteItems'; item_ids: readonly number[] | 'all'; preserve: readonly ActionItemStatus[] }
  | {
      type: 'CloseMonth'
      client_id: number
      month: string
      next_month: string
      carried: readonly { item_id: number; new_item_id: number }[]
      budget_hours: number | null
    }

export const initialClientMonthState = (): ClientMonthState => ({
  clientId: 0,
  month: null,
  items: new Map(),
  bySourceKey: new Map(),
  closed: false,
})

/** The month's live (not deleted) items. */
export const liveItems = (state: ClientMonthState): ItemState[] => [...state.items.values()].filter((i) => !i.deleted)

/** Items still to do: carried into the next month when the cycle closes. */
export const unfinishedItems = (state: ClientMonthState): ItemState[] =>
  liveItems(state).filter((i) => i.status === 'pending' || i.status === 'in_progress')

function evolve(state: ClientMonthState, event: ActionItemEvent): ClientMonthState {
  const withItem = (id: number, change: (item: ItemState) => ItemState): ClientMonthState => {
    const item = state.items.get(id)
    if (!item) return state
    const items = new Map(state.items)
    items.set(id, change(item))
    return { ...state, items }
  }
  switch (event.type) {
    case 'ActionItemAdded': {
      const e = event.data
      const items = new Map(state.items)
      items.set(e.item_id, {
        id: e.item_id,
        actionType: e.action_type,
        pageUrl: e.page_url,
        description: e.description,
        tier: e.tier,
        hours: e.hours,
        status: 'pending',
        sourceKey: e.source_key,
        deleted: false,
      })
      const bySourceKey = e.source_key === null ? state.bySourceKey : new Map(state.bySourceKey).set(e.source_key, e.item_id)
      return { ...state, clientId: e.client_id, month: e.month, items, bySourceKey }
    }
    case 'ActionItemUpdated': {
      const e = event.data
      return withItem(e.item_id, (i) => ({
        ...i,
        actionType: e.action_type,
        pageUrl: e.page_url,
        description: e.description,
        tier: e.tier,
        hours: e.hours,
      }))
    }
    case 'ActionItemStatusChanged':
      return withItem(event.data.item_id, (i) => ({ ...i, status: event.data.status }))
    case 'ActionItemDeleted':
      return withItem(event.data.item_id, (i) => ({ ...i, deleted: true }))
    case 'ActionItemMonthClosed':
      return { ...state, clientId: event.data.client_id, month: event.data.month, closed: true }
    default:
      return assertNever(event)
  }
}

function liveItem(state: ClientMonthState, itemId: number): ItemState {
  const item = state.items.get(itemId)
  if (!item || item.deleted) throw new NotFoundError('action item', itemId)
  return item
}

function decide(command: ClientMonthCommand, state: ClientMonthState): ActionItemEvent[] {
  const where = { client_id: state.clientId, month: state.month }
  switch (command.type) {
    case 'AddItems': {
      const fresh = command.items.filter((i) => i.source_key === null || !state.bySourceKey.has(i.source_key))
      if (fresh.length === 0) return []
      if (state.closed) {
        throw new DomainError(
          'action_item_month_closed',
          'The month is closed',
          `the cycle of ${command.month} for client ${command.client_id} is closed; its unfinished items moved to the next month`,
        )
      }
      const seen = new Set<string>()
      return fresh
        .filter((i) => i.source_key === null || (!seen.has(i.source_key) && seen.add(i.source_key)))
        .map((i) => ({ type: 'ActionItemAdded', data: { ...i, client_id: command.client_id, month: command.month } }))
    }
    case 'UpdateItem': {
      const item = liveItem(state, command.item_id)
      const f = command.fields
      const next = {
        action_type: f.action_type ?? item.actionType,
        page_url: f.page_url ?? item.pageUrl,
        description: f.description ?? item.description,
        tier: f.tier ?? item.tier,
        hours: f.hours ?? item.hours,
      }
      const same =
        next.action_type === item.actionType &&
        next.page_url === item.pageUrl &&
        next.description === item.description &&
        next.tier === item.tier &&
        next.hours === item.hours
      return same ? [] : [{ type: 'ActionItemUpdated', data: { item_id: item.id, ...where, ...next } }]
    }
    case 'SetStatus': {
      const item = liveItem(state, command.item_id)
      if (item.status === command.status) return [] // setting it again changes nothing (a retried request)
      return [
        {
          type: 'ActionItemStatusChanged',
          data: {
            item_id: item.id,
            ...where,
            action_type: item.actionType,
            page_url: item.pageUrl,
            from: item.status,
            status: command.status,
            completed_at: command.status === 'done' ? command.now : null,
            note: command.note,
            site_edit_id: command.site_edit_id,
          },
        },
      ]
    }
    case 'DeleteItems': {
      const targets = command.item_ids === 'all' ? liveItems(state) : command.item_ids.map((id) => liveItem(state, id))
      return targets
        .filter((i) => !command.preserve.includes(i.status))
        .map((i) => ({ type: 'ActionItemDeleted', data: { item_id: i.id, ...where } }))
    }
    case 'CloseMonth': {
      if (state.closed) return [] // closed already: the carry-over happened
      const doneHours = liveItems(state)
        .filter((i) => i.status === 'done')
        .reduce((sum, i) => sum + i.hours, 0)
      return [
        {
          type: 'ActionItemMonthClosed',
          data: {
            client_id: command.client_id,
            month: command.month,
            next_month: command.next_month,
            carried: [...command.carried],
            budget_hours: command.budget_hours,
            done_hours: Math.round(doneHours * 100) / 100,
          },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const clientMonth: Aggregate<ClientMonthState, ClientMonthCommand, ActionItemEvent, ClientMonthId> = {
  streamOf: actionItemsStream,
  initialState: initialClientMonthState,
  evolve,
  decide,
  entity: 'action item',
}
