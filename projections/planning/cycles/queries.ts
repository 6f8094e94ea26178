import { sql } from 'kysely'
import { budgetFor } from '../../../domain/planning/cycles/hour-budget.js'
import { monthRange } from '../../../domain/shared/months.js'
import { consecutiveRolloverMonths, hourLedger, type MonthFacts, type MonthLedger } from '../../../domain/planning/cycles/rollover.js'
import type { ReadDb } from '../../tables.js'

/**
 * The cycle views: the hour budgets (settings), the action items (h1's projector) and the month closes read
 * together, and the numbers decided by the pure ledger in domain/planning/cycles/rollover.ts.
 */

/** Whose rows: one client's, or every client's of an organization. */
type Scope = { readonly clientId: number } | { readonly orgId: number }

/** A month's item counts and hours for one client, from its live (not deleted) items. */
interface MonthItems {
  readonly items: number
  readonly pending: number
  readonly inProgress: number
  readonly done: number
  readonly skipped: number
  /** Items carried in from an earlier month's close. */
  readonly rolledIn: number
  readonly plannedHours: number
  readonly doneHours: number
}

interface CloseRow {
  readonly month: string
  readonly nextMonth: string
  readonly carried: number
  readonly budgetHours: number | null
  readonly closedAt: Date
}

/** Everything the ledger needs of one client. */
export interface ClientCycleFacts {
  readonly settings: { fromMonth: string; hours: number | null }[]
  readonly items: Map<string, MonthItems>
  readonly closes: Map<string, CloseRow>
}

const newFacts = (): ClientCycleFacts => ({ settings: [], items: new Map(), closes: new Map() })

/** The budget settings, month item counts and closes of the scope's clients, by client id. */
export async function cycleFacts(read: ReadDb, scope: Scope): Promise<Map<number, ClientCycleFacts>> {
  const byClient = new Map<number, ClientCycleFacts>()
  const factsOf = (clientId: number) => {
    const known = byClient.get(clientId)
    if (known) return known
    const facts = newFacts()
    byClient.set(clientId, facts)
    return facts
  }
  const settings = await read
    .selectFrom('hour_budget_settings')
    .select(['client_id', 'from_month', 'hours'])
    .where((eb) => ('clientId' in scope ? eb('client_id', '=', scope.clientId) : eb('org_id', '=', scope.orgId)))
    .orderBy('client_id')
    .orderBy('from_month')
    .execute()
  for (const s of settings) factsOf(s.client_id).settings.push({ fromMonth: s.from_month, hours: s.hours })

  const items = await read
    .selectFrom('action_items')
    .select([
      'client_id',
      'month',
      sql<number>`count(*)::int`.as('items'),
      sql<number>`(count(*) filter (where status = 'pending'))::int`.as('pending'),
      sql<number>`(count(*) filter (where status = 'in_progress'))::int`.as('in_progress'),
      sql<number>`(count(*) filter (where status = 'done'))::int`.as('done'),
      sql<number>`(count(*) filter (where status = 'skipped'))::int`.as('skipped'),
      sql<number>`(count(*) filter (where carried_from_item_id is not null))::int`.as('rolled_in'),
      sql<number>`coalesce(sum(hours) filter (where status <> 'skipped'), 0)::float8`.as('planned_hours'),
      sql<number>`coalesce(sum(hours) filter (where status = 'done'), 0)::float8`.as('done_hours'),
    ])
    .where((eb) => ('clientId' in scope ? eb('client_id', '=', scope.clientId) : eb('org_id', '=', scope.orgId)))
    .where('deleted_at', 'is', null)
    .where('month', 'is not', null)
    .groupBy(['client_id', 'month'])
    .execute()
  for (const row of items) {
    factsOf(row.client_id).items.set(row.month!, {
      items: row.items,
      pending: row.pending,
      inProgress: row.in_progress,
      done: row.done,
      skipped: row.skipped,
      rolledIn: row.rolled_in,
      plannedHours: row.planned_hours,
      doneHours: row.done_hours,
    })
  }

  const closes = await read
    .selectFrom('action_item_months_closed')
    .select(['client_id', 'month', 'next_month', 'carried_count', 'budget_hours', 'closed_at'])
    .where((eb) => ('clientId' in scope ? eb('client_id', '=', scope.clientId) : eb('org_id', '=', scope.orgId)))
    .execute()
  for (const c of closes) {
    factsOf(c.client_id).closes.set(c.month, {
      month: c.month,
      nextMonth: c.next_month,
      carried: c.carried_count,
      budgetHours: c.budget_hours,
      closedAt: c.closed_at,
    })
  }
  return byClient
}

const NO_ITEMS: MonthItems = { items: 0, pending: 0, inProgress: 0, done: 0, skipped: 0, rolledIn: 0, plannedHours: 0, doneHours: 0 }

export const monthItemsOf = (facts: ClientCycleFacts, month: string): MonthItems => facts.items.get(month) ?? NO_ITEMS

/**
 * The client's ledger, ascending, from its first month with a budget or an item (or `include`, if earlier)
 * to its last month with an item, a budget setting or a close's next month (or `include`, if later). Empty
 * when the client has neither a budget nor an item and `include` is null.
 */
export function clientLedger(facts: ClientCycleFacts, include: string | null): MonthLedger[] {
  const starts = [...facts.settings.filter((s) => s.hours !== null).map((s) => s.fromMonth), ...facts.items.keys(), ...facts.closes.keys()]
  if (starts.length === 0 && include === null) return []
  const ends = [...starts, ...facts.settings.map((s) => s.fromMonth), ...[...facts.closes.values()].map((c) => c.nextMonth)]
  if (include !== null) {
    starts.push(include)
    ends.push(include)
  }
  const first = [...starts].sort()[0]!
  const last = [...ends].sort().at(-1)!
  const state = { settings: facts.settings }
  const months: MonthFacts[] = monthRange(first, last).map((month) => {
    const items = monthItemsOf(facts, month)
    const close = facts.closes.get(month)
    return {
      month,
      // A closed month keeps the budget it was closed with; a later setting does not rewrite its history.
      budgetHours: close ? close.budgetHours : budgetFor(state, month),
      plannedHours: items.plannedHours,
      doneHours: items.doneHours,
      itemsPlanned: items.items,
      itemsDone: items.done,
      itemsCarriedOut: close?.carried ?? 0,
      closedInto: close?.nextMonth ?? null,
    }
  })
  return hourLedger(months)
}

/** A month of get_hour_budgets. */
export interface HourBudgetMonthView {
  month: string
  budget_hours: number | null
  rolled_over_in_hours: number
  available_hours: number | null
  planned_hours: number
  done_hours: number
  unused_hours: number | null
  items_planned: number
  items_done: number
  items_carried_out: number
  closed: boolean
}

export const hourBudgetMonthView = (m: MonthLedger): HourBudgetMonthView => ({
  month: m.month,
  budget_hours: m.budgetHours,
  rolled_over_in_hours: m.rolledOverInHours,
  available_hours: m.availableHours,
  planned_hours: m.plannedHours,
  done_hours: m.doneHours,
  unused_hours: m.unusedHours,
  items_planned: m.itemsPlanned,
  items_done: m.itemsDone,
  items_carried_out: m.itemsCarriedOut,
  closed: m.closed,
})

/** get_hour_budgets: the client's months through `currentMonth` (or later, if planned ahead), newest first. */
export async function hourBudgets(read: ReadDb, clientId: number, currentMonth: string, limit: number): Promise<HourBudgetMonthView[]> {
  const facts = (await cycleFacts(read, { clientId })).get(clientId)
  if (!facts) return []
  const ledger = clientLedger(facts, null)
  if (ledger.length === 0) return []
  // Bring the range up to the current month, so a budget set months ago shows every month since.
  const through = ledger.at(-1)!.month < currentMonth ? clientLedger(facts, currentMonth) : ledger
  return through.reverse().slice(0, limit).map(hourBudgetMonthView)
}

/** get_consecutive_rollover_months. */
export async function consecutiveRollovers(read: ReadDb, clientId: number): Promise<number> {
  const rows = await read
    .selectFrom('action_item_months_closed')
    .select(['month', 'next_month', 'carried_count'])
    .where('client_id', '=', clientId)
    .execute()
  return consecutiveRolloverMonths(rows.map((r) => ({ month: r.month, nextMonth: r.next_month, carried: r.carried_count })))
}

/** A budget setting as set_hour_budget answers it. */
export interface HourBudgetSettingView {
  from_month: string
  hours: number | null
  set_at: string
}

/** The client's budget settings, by starting month. */
export async function hourBudgetSettings(read: ReadDb, clientId: number): Promise<HourBudgetSettingView[]> {
  const rows = await read
    .selectFrom('hour_budget_settings')
    .select(['from_month', 'hours', 'set_at'])
    .where('client_id', '=', clientId)
    .orderBy('from_month')
    .execute()
  return rows.map((r) => ({ from_month: r.from_month, hours: r.hours, set_at: r.set_at.toISOString() }))
}

/** The hours a client's month holds, by the rollover rule: what the strategist fits the month's plan to. */
export interface MonthHours {
  /** The month's budget (a closed month: as at its close); null: none. */
  readonly budgetHours: number | null
  /** Unused hours rolled in from the month closed into this one. */
  readonly rolledOverInHours: number
  /** budget + rolled over in; null without a budget. */
  readonly availableHours: number | null
}

/**
 * The budget, rollover and available hours of one client-month (the same numbers get_hour_budgets shows for
 * it). Read after the earlier months' closes are settled, so their unused hours are counted.
 */
export async function monthHours(read: ReadDb, clientId: number, month: string): Promise<MonthHours> {
  const facts = (await cycleFacts(read, { clientId })).get(clientId) ?? newFacts()
  const m = clientLedger(facts, month).find((l) => l.month === month)!
  return { budgetHours: m.budgetHours, rolledOverInHours: m.rolledOverInHours, availableHours: m.availableHours }
}
