import { sql } from 'kysely'
import type { ReadDb } from '../../tables.js'
import { clientLedger, cycleFacts, monthItemsOf } from './queries.js'

/** The owner's views over every client of an organization (get_org_cycle_overview and the lists beside it). */

/** The rows a paginated list was asked for. */
interface Page {
  readonly limit: number
  readonly offset: number
}

/** One client's line of get_org_cycle_overview. */
export interface CycleOverviewClient {
  client_id: number
  client_name: string
  items_planned: number
  items_pending: number
  items_in_progress: number
  items_done: number
  items_skipped: number
  items_rolled_over_in: number
  items_carried_out: number
  budget_hours: number | null
  rolled_over_in_hours: number
  available_hours: number | null
  planned_hours: number
  hours_used: number
  closed: boolean
  behind: boolean
}

export interface CycleOverview {
  month: string
  current_month: string
  is_current: boolean
  is_past: boolean
  clients: CycleOverviewClient[]
  totals: {
    clients: number
    items_planned: number
    items_done: number
    items_in_progress: number
    items_rolled_over_in: number
    budget_hours: number
    hours_used: number
    clients_behind: number
    clients_closed: number
  }
}

const round = (hours: number): number => Math.round(hours * 100) / 100

/** get_org_cycle_overview: the month of every active client of the organization, in client id order. */
export async function orgCycleOverview(read: ReadDb, orgId: number, month: string, currentMonth: string): Promise<CycleOverview> {
  const clients = await read
    .selectFrom('clients')
    .select(['id', 'name'])
    .where('org_id', '=', orgId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute()
  const facts = await cycleFacts(read, { orgId })
  const isPast = month < currentMonth
  const lines = clients.map((client): CycleOverviewClient => {
    const f = facts.get(client.id) ?? { settings: [], items: new Map(), closes: new Map() }
    const ledger = clientLedger(f, month).find((m) => m.month === month)!
    const items = monthItemsOf(f, month)
    return {
      client_id: client.id,
      client_name: client.name,
      items_planned: items.items,
      items_pending: items.pending,
      items_in_progress: items.inProgress,
      items_done: items.done,
      items_skipped: items.skipped,
      items_rolled_over_in: items.rolledIn,
      items_carried_out: ledger.itemsCarriedOut,
      budget_hours: ledger.budgetHours,
      rolled_over_in_hours: ledger.rolledOverInHours,
      available_hours: ledger.availableHours,
      planned_hours: ledger.plannedHours,
      hours_used: ledger.doneHours,
      closed: ledger.closed,
      // Past and its plan not finished: items still pending or in progress (carried over or not).
      behind: isPast && items.pending + items.inProgress > 0,
    }
  })
  const sum = (pick: (c: CycleOverviewClient) => number) => lines.reduce((total, c) => total + pick(c), 0)
  return {
    month,
    current_month: currentMonth,
    is_current: month === currentMonth,
    is_past: isPast,
    clients: lines,
    totals: {
      clients: lines.length,
      items_planned: sum((c) => c.items_planned),
      items_done: sum((c) => c.items_done),
      items_in_progress: sum((c) => c.items_in_progress),
      items_rolled_over_in: sum((c) => c.items_rolled_over_in),
      budget_hours: round(sum((c) => c.budget_hours ?? 0)),
      hours_used: round(sum((c) => c.hours_used)),
      clients_behind: lines.filter((c) => c.behind).length,
      clients_closed: lines.filter((c) => c.closed).length,
    },
  }
}

/** A line of list_cycle_tier_a_todo. */
export interface TierATodo {
  item_id: number
  client_id: number
  client_name: string
  month: string
  action_type: string
  page_url: string
  description: string
  status: 'pending' | 'in_progress'
  hours: number
  impact: number | null
  carried_from_item_id: number | null
  created_at: string
}

/**
 * list_cycle_tier_a_todo: the month's tier A items still pending or in progress, of the org's clients not
 * deleted, oldest first; an item a close carried over is left out (its copy in the next month is the work).
 */
export async function tierATodo(read: ReadDb, orgId: number, month: string, page: Page): Promise<TierATodo[]> {
  const rows = await read
    .selectFrom('action_items as i')
    .innerJoin('clients as c', 'c.id', 'i.client_id')
    .select([
      'i.id',
      'i.client_id',
      'c.name as client_name',
      'i.month',
      'i.action_type',
      'i.page_url',
      'i.description',
      'i.status',
      'i.hours',
      'i.impact',
      'i.carried_from_item_id',
      'i.created_at',
    ])
    .where('i.org_id', '=', orgId)
    .where('c.status', '<>', 'deleted')
    .where('i.month', '=', month)
    .where('i.tier', '=', 'A')
    .where('i.status', 'in', ['pending', 'in_progress'])
    .where('i.deleted_at', 'is', null)
    // An item a close carried over is continued by its copy in the next month: only the copy is to do.
    .where('i.carried_to_item_id', 'is', null)
    .orderBy('i.created_at')
    .orderBy('i.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map((r) => ({
    item_id: r.id,
    client_id: r.client_id,
    client_name: r.client_name,
    month: r.month!,
    action_type: r.action_type,
    page_url: r.page_url,
    description: r.description,
    status: r.status as 'pending' | 'in_progress',
    hours: r.hours,
    impact: r.impact,
    carried_from_item_id: r.carried_from_item_id,
    created_at: r.created_at.toISOString(),
  }))
}

/** A line of get_resolved_cycle_pairs. */
export interface ResolvedCyclePair {
  client_id: number
  client_name: string
  month: string
  next_month: string
  carried: number
  done_hours: number
  budget_hours: number | null
  closed_at: string
}

/** get_resolved_cycle_pairs: the org's closed client-months (clients not deleted), newest month first. */
export async function resolvedCyclePairs(read: ReadDb, orgId: number, page: Page): Promise<ResolvedCyclePair[]> {
  const rows = await read
    .selectFrom('action_item_months_closed as m')
    .innerJoin('clients as c', 'c.id', 'm.client_id')
    .select([
      'm.client_id',
      'c.name as client_name',
      'm.month',
      'm.next_month',
      'm.carried_count',
      'm.done_hours',
      'm.budget_hours',
      'm.closed_at',
    ])
    .where('m.org_id', '=', orgId)
    .where('c.status', '<>', 'deleted')
    .orderBy('m.month', 'desc')
    .orderBy('m.client_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map((r) => ({
    client_id: r.client_id,
    client_name: r.client_name,
    month: r.month,
    next_month: r.next_month,
    carried: r.carried_count,
    done_hours: r.done_hours,
    budget_hours: r.budget_hours,
    closed_at: r.closed_at.toISOString(),
  }))
}

/** One client's line of get_outstanding_summary. */
export interface OutstandingClient {
  client_id: number
  client_name: string
  items: number
  items_in_progress: number
  hours: number
  oldest_month: string | null
  open_months: number
  undated_items: number
}

export interface OutstandingSummary {
  clients: OutstandingClient[]
  totals: { clients: number; items: number; items_in_progress: number; hours: number; oldest_month: string | null }
}

/**
 * get_outstanding_summary: per client (not deleted) with any, the unfinished (pending, in progress) items of
 * its open months (a closed month's unfinished items were carried over, so the copies count, not the
 * originals) and of no month; oldest open month first.
 */
export async function outstandingSummary(read: ReadDb, orgId: number): Promise<OutstandingSummary> {
  const rows = await read
    .selectFrom('action_items as i')
    .innerJoin('clients as c', 'c.id', 'i.client_id')
    .leftJoin('action_item_months_closed as m', (join) => join.onRef('m.client_id', '=', 'i.client_id').onRef('m.month', '=', 'i.month'))
    .select([
      'i.client_id',
      'c.name as client_name',
      sql<number>`count(*)::int`.as('items'),
      sql<number>`(count(*) filter (where i.status = 'in_progress'))::int`.as('items_in_progress'),
      sql<number>`coalesce(sum(i.hours), 0)::float8`.as('hours'),
      sql<string | null>`min(i.month)`.as('oldest_month'),
      sql<number>`count(distinct i.month)::int`.as('open_months'),
      sql<number>`(count(*) filter (where i.month is null))::int`.as('undated_items'),
    ])
    .where('i.org_id', '=', orgId)
    .where('c.status', '<>', 'deleted')
    .where('i.status', 'in', ['pending', 'in_progress'])
    .where('i.deleted_at', 'is', null)
    .where('m.month', 'is', null)
    .groupBy(['i.client_id', 'c.name'])
    .execute()
  const clients = rows
    .map((r) => ({ ...r, hours: round(r.hours) }))
    .sort((a, b) => (a.oldest_month ?? '9999-99').localeCompare(b.oldest_month ?? '9999-99') || a.client_id - b.client_id)
  const months = clients.flatMap((c) => (c.oldest_month === null ? [] : [c.oldest_month]))
  return {
    clients,
    totals: {
      clients: clients.length,
      items: clients.reduce((n, c) => n + c.items, 0),
      items_in_progress: clients.reduce((n, c) => n + c.items_in_progress, 0),
      hours: round(clients.reduce((n, c) => n + c.hours, 0)),
      oldest_month: [...months].sort()[0] ?? null,
    },
  }
}
