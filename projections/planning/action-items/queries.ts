import { sql, type Selectable } from 'kysely'
import type { ActionItemSource, ActionItemStatus, ActionItemTier } from '../../../domain/planning/action-items/events.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { ActionItemsTable } from './tables.js'

type ItemRow = Selectable<ActionItemsTable>

/** A page of a list (the registry's limit and offset). */
export interface Page {
  readonly limit: number
  readonly offset: number
}

/** An action item as the API shows it (get_action_item, get_action_items, the writes' answers). */
export interface ActionItemView {
  id: number
  client_id: number
  month: string | null
  action_type: string
  page_url: string
  description: string
  status: ActionItemStatus
  tier: ActionItemTier
  hours: number
  impact: number | null
  source: ActionItemSource
  carried_from_item_id: number | null
  carried_to_item_id: number | null
  job_id: number | null
  site_edit_id: number | null
  note: string
  completed_at: string | null
  created_at: string
  updated_at: string
}

const iso = (at: Date | null): string | null => (at === null ? null : at.toISOString())

export function actionItemView(row: ItemRow): ActionItemView {
  return {
    id: row.id,
    client_id: row.client_id,
    month: row.month,
    action_type: row.action_type,
    page_url: row.page_url,
    description: row.description,
    status: row.status,
    tier: row.tier,
    hours: row.hours,
    impact: row.impact,
    source: { kind: row.source_kind, id: row.source_id, by: row.source_by },
    carried_from_item_id: row.carried_from_item_id,
    carried_to_item_id: row.carried_to_item_id,
    job_id: row.job_id,
    site_edit_id: row.site_edit_id,
    note: row.note,
    completed_at: iso(row.completed_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** Live (not deleted) items, of one organization (null: any). */
function liveItems(read: ReadDb, orgId: number | null) {
  let query = read.selectFrom('action_items').selectAll().where('deleted_at', 'is', null)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return query
}

/**
 * The live item, if the caller's organization (null: any) may see it; a deleted item and another
 * organization's answer 404 exactly like a missing one.
 */
export async function visibleActionItem(read: ReadDb, orgId: number | null, itemId: number): Promise<ActionItemView> {
  const row = await liveItems(read, orgId).where('id', '=', itemId).executeTakeFirst()
  if (!row) throw new NotFoundError('action item', itemId)
  return actionItemView(row)
}

/** The month filter: a month (and, asked for, the items without one), or items without a month (null). */
function inMonth<Q extends ReturnType<typeof liveItems>>(query: Q, month: string | null, includeNullMonth: boolean): Q {
  if (month === null) return query.where('month', 'is', null) as Q
  return query.where((eb) => (includeNullMonth ? eb.or([eb('month', '=', month), eb('month', 'is', null)]) : eb('month', '=', month))) as Q
}

/**
 * find_action_item_id: the first (lowest id) live item of the client's month with the action type, on the
 * page when given, whose description contains the text (case-insensitive) when given; null when none.
 */
export async function findActionItemId(
  read: ReadDb,
  clientId: number,
  filter: { month: string | null; actionType: string; pageUrl?: string; descriptionContains?: string },
): Promise<number | null> {
  let query = inMonth(liveItems(read, null).where('client_id', '=', clientId), filter.month, false).where(
    'action_type',
    '=',
    filter.actionType,
  )
  if (filter.pageUrl !== undefined) query = query.where('page_url', '=', filter.pageUrl)
  if (filter.descriptionContains !== undefined && filter.descriptionContains !== '') {
    // strpos, not LIKE: the caller's text is matched as it is (no % or _ wildcards to escape).
    query = query.where(sql<boolean>`strpos(lower(description), lower(${filter.descriptionContains})) > 0`)
  }
  const row = await query.orderBy('id').limit(1).executeTakeFirst()
  return row?.id ?? null
}

/** Completed within [start, end], UTC days (YYYY-MM-DD, both included). */
export interface DayRange {
  readonly start: string
  readonly end: string
}

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`)
const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 86_400_000)

export interface ClientItemsFilter {
  /** undefined: every month (items without one included). */
  readonly month?: string | null
  readonly includeNullMonth: boolean
  readonly statuses?: readonly ActionItemStatus[]
  readonly actionType?: string
  readonly completedBetween?: DayRange
}

/** get_action_items: the client's live items, by month then id. */
export async function actionItemsOfClient(
  read: ReadDb,
  clientId: number,
  filter: ClientItemsFilter,
  page: Page,
): Promise<ActionItemView[]> {
  let query = liveItems(read, null).where('client_id', '=', clientId)
  if (filter.month !== undefined) query = inMonth(query, filter.month, filter.includeNullMonth)
  if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses])
  if (filter.actionType !== undefined) query = query.where('action_type', '=', filter.actionType)
  if (filter.completedBetween !== undefined) {
    query = query
      .where('completed_at', '>=', dayStart(filter.completedBetween.start))
      .where('completed_at', '<', dayAfter(filter.completedBetween.end))
  }
  const rows = await query.orderBy(sql`month asc nulls first`).orderBy('id').limit(page.limit).offset(page.offset).execute()
  return rows.map(actionItemView)
}

export interface OrgItemsFilter {
  readonly month?: string | null
  readonly statuses?: readonly ActionItemStatus[]
  /** true: only items with completed_at (done); false: only those without. */
  readonly completedAtPresent?: boolean
  readonly completedSince?: Date
}

/** list_action_items_for_org_filtered: the organization's live items, by client, month, id. */
export async function actionItemsOfOrg(read: ReadDb, orgId: number, filter: OrgItemsFilter, page: Page): Promise<ActionItemView[]> {
  let query = liveItems(read, orgId)
  if (filter.month !== undefined) query = inMonth(query, filter.month, false)
  if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses])
  if (filter.completedAtPresent !== undefined) query = query.where('completed_at', filter.completedAtPresent ? 'is not' : 'is', null)
  if (filter.completedSince !== undefined) query = query.where('completed_at', '>=', filter.completedSince)
  const rows = await query
    .orderBy('client_id')
    .orderBy(sql`month asc nulls first`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(actionItemView)
}

/** A month of action items, counted (list_action_item_months_for_client / _for_org). */
export interface ActionItemMonthView {
  month: string
  items: number
  pending: number
  in_progress: number
  done: number
  skipped: number
  /** Estimated hours of every live item, and of the done ones. */
  hours: number
  done_hours: number
  /** Clients whose month's cycle is closed (for one client: 0 or 1). */
  closed: number
}

const round2 = (n: number) => Math.round(n * 100) / 100

/**
 * Per month (newest first), the live items counted by status with their hours, and the closed cycles: a
 * month appears when it holds a live item or its cycle closed. Items without a month are not a month.
 */
async function monthsOf(read: ReadDb, where: { clientId: number } | { orgId: number }): Promise<ActionItemMonthView[]> {
  const count = (status: ActionItemStatus) => sql<number>`count(*) filter (where status = ${status})`
  let items = read
    .selectFrom('action_items')
    .select((eb) => [
      'month',
      eb.fn.countAll<number>().as('items'),
      count('pending').as('pending'),
      count('in_progress').as('in_progress'),
      count('done').as('done'),
      count('skipped').as('skipped'),
      sql<number>`coalesce(sum(hours), 0)`.as('hours'),
      sql<number>`coalesce(sum(hours) filter (where status = 'done'), 0)`.as('done_hours'),
    ])
    .where('deleted_at', 'is', null)
    .where('month', 'is not', null)
    .groupBy('month')
  let closed = read
    .selectFrom('action_item_months_closed')
    .select((eb) => ['month', eb.fn.countAll<number>().as('closed')])
    .groupBy('month')
  if ('clientId' in where) {
    items = items.where('client_id', '=', where.clientId)
    closed = closed.where('client_id', '=', where.clientId)
  } else {
    items = items.where('org_id', '=', where.orgId)
    closed = closed.where('org_id', '=', where.orgId)
  }
  const [itemRows, closedRows] = await Promise.all([items.execute(), closed.execute()])
  const months = new Map<string, ActionItemMonthView>()
  const empty = (month: string): ActionItemMonthView => ({
    month,
    items: 0,
    pending: 0,
    in_progress: 0,
    done: 0,
    skipped: 0,
    hours: 0,
    done_hours: 0,
    closed: 0,
  })
  for (const r of itemRows) {
    const month = r.month as string
    months.set(month, {
      ...empty(month),
      items: Number(r.items),
      pending: Number(r.pending),
      in_progress: Number(r.in_progress),
      done: Number(r.done),
      skipped: Number(r.skipped),
      hours: round2(Number(r.hours)),
      done_hours: round2(Number(r.done_hours)),
    })
  }
  for (const r of closedRows) months.set(r.month, { ...(months.get(r.month) ?? empty(r.month)), closed: Number(r.closed) })
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month))
}

export const actionItemMonthsOfClient = (read: ReadDb, clientId: number) => monthsOf(read, { clientId })
export const actionItemMonthsOfOrg = (read: ReadDb, orgId: number) => monthsOf(read, { orgId })

/** A closed client-month, as close_action_item_month answers it. */
export interface ClosedMonthView {
  client_id: number
  month: string
  next_month: string
  carried_count: number
  budget_hours: number | null
  done_hours: number
  closed_at: string
}

export async function closedMonth(read: ReadDb, clientId: number, month: string): Promise<ClosedMonthView | null> {
  const row = await read
    .selectFrom('action_item_months_closed')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('month', '=', month)
    .executeTakeFirst()
  if (!row) return null
  return {
    client_id: row.client_id,
    month: row.month,
    next_month: row.next_month,
    carried_count: row.carried_count,
    budget_hours: row.budget_hours,
    done_hours: row.done_hours,
    closed_at: row.closed_at.toISOString(),
  }
}

/** The items the month's close carried: old id → the id continuing it next month. */
export async function carriedFrom(read: ReadDb, clientId: number, month: string): Promise<{ item_id: number; new_item_id: number }[]> {
  const rows = await read
    .selectFrom('action_items')
    .select(['id', 'carried_to_item_id'])
    .where('client_id', '=', clientId)
    .where('month', '=', month)
    .where('carried_to_item_id', 'is not', null)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ item_id: r.id, new_item_id: r.carried_to_item_id as number }))
}
