import { z } from 'zod'
import { setHourBudget } from '../../../commands/planning/cycles.js'
import { Hours } from '../../../domain/planning/action-items/events.js'
import { monthOfDate } from '../../../domain/shared/months.js'
import { Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { orgCycleOverview, outstandingSummary, resolvedCyclePairs, tierATodo } from '../../../projections/planning/cycles/org-views.js'
import { consecutiveRollovers, hourBudgetSettings, hourBudgets } from '../../../projections/planning/cycles/queries.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'planning'
const ROLLOVER_RULE =
  "A closed month's unused hours (available − done) roll into the month it carried into, capped at that month's own budget; a month without a budget rolls nothing and takes nothing in."

const MonthParam = (what: string) => Month.describe(`${what} (YYYY-MM)`)
const ClientName = z.string().describe("The client's name")
const ItemCount = (what: string) => z.number().int().min(0).describe(what)
const HoursOut = (what: string) => z.number().min(0).describe(what)
const HoursOrNull = (what: string) => z.number().min(0).nullable().describe(what)

const BudgetSettingSchema = z
  .object({
    from_month: Month.describe('The first month the setting holds (YYYY-MM); it holds until a later setting'),
    hours: HoursOrNull('Hours a month from then on; null: no budget from then on'),
    set_at: z.string().describe('When it was set (ISO 8601)'),
  })
  .describe('A budget setting')

const HourBudgetMonthSchema = z
  .object({
    month: Month.describe('The month (YYYY-MM)'),
    budget_hours: HoursOrNull("The month's budget (a closed month: as it was at the close); null: none"),
    rolled_over_in_hours: HoursOut('Unused hours rolled in from the month closed into this one (0 without a budget)'),
    available_hours: HoursOrNull('budget_hours + rolled_over_in_hours; null without a budget'),
    planned_hours: HoursOut("Hours of the month's items, skipped ones left out"),
    done_hours: HoursOut("Hours of the month's done items"),
    unused_hours: HoursOrNull('available_hours − done_hours, never below 0; null without a budget (rolls on only once closed)'),
    items_planned: ItemCount("The month's items (any status; deleted ones left out)"),
    items_done: ItemCount('Items done'),
    items_carried_out: ItemCount("Unfinished items the month's close carried into the next month (0 while open)"),
    closed: z.boolean().describe("Whether the month's cycle is closed"),
  })
  .describe("A month of a client's hours")

const exampleMonth = {
  month: '2026-10',
  budget_hours: 10,
  rolled_over_in_hours: 2.5,
  available_hours: 12.5,
  planned_hours: 11,
  done_hours: 9,
  unused_hours: 3.5,
  items_planned: 8,
  items_done: 6,
  items_carried_out: 2,
  closed: true,
}

const OverviewClientSchema = z
  .object({
    client_id: ClientId,
    client_name: ClientName,
    items_planned: ItemCount("The month's items (any status)"),
    items_pending: ItemCount('Items pending'),
    items_in_progress: ItemCount('Items in progress'),
    items_done: ItemCount('Items done'),
    items_skipped: ItemCount('Items skipped'),
    items_rolled_over_in: ItemCount("Items carried in from an earlier month's close"),
    items_carried_out: ItemCount("Unfinished items this month's close carried into the next (0 while open)"),
    budget_hours: HoursOrNull("The month's budget; null: none"),
    rolled_over_in_hours: HoursOut('Unused hours rolled in (see get_hour_budgets)'),
    available_hours: HoursOrNull('budget + rolled over in; null without a budget'),
    planned_hours: HoursOut("Hours of the month's items, skipped ones left out"),
    hours_used: HoursOut('Hours of the items done'),
    closed: z.boolean().describe("Whether the month's cycle is closed"),
    behind: z.boolean().describe('The month is before current_month and items of it are still pending or in progress'),
  })
  .describe("One client's month")

const exampleOverviewClient = {
  client_id: 34,
  client_name: 'Acme Plumbing',
  items_planned: 8,
  items_pending: 1,
  items_in_progress: 1,
  items_done: 5,
  items_skipped: 1,
  items_rolled_over_in: 2,
  items_carried_out: 0,
  budget_hours: 10,
  rolled_over_in_hours: 2.5,
  available_hours: 12.5,
  planned_hours: 9.5,
  hours_used: 6,
  closed: false,
  behind: false,
}

const TierATodoSchema = z
  .object({
    item_id: z.number().int().positive().describe('The action item (get_action_item)'),
    client_id: ClientId,
    client_name: ClientName,
    month: Month.describe('The month (YYYY-MM)'),
    action_type: z.string().describe('What to do (title_meta_rewrite, redirect, internal_links, create_page, …)'),
    page_url: z.string().describe("The page it is about; '' when none"),
    description: z.string().describe('The work, in words'),
    status: z.enum(['pending', 'in_progress']).describe('pending or in_progress'),
    hours: HoursOut('The estimate, in hours'),
    impact: z.number().nullable().describe("Expected impact 0–100 (the strategist's ranking); null when added without one"),
    carried_from_item_id: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("The earlier month's item it continues; null when planned this month"),
    created_at: z.string().describe('When it was added (ISO 8601)'),
  })
  .describe('A tier A item still to do')

const PairSchema = z
  .object({
    client_id: ClientId,
    client_name: ClientName,
    month: Month.describe('The closed month (YYYY-MM)'),
    next_month: Month.describe('The month that followed: its unfinished items were carried into it (YYYY-MM)'),
    carried: ItemCount('How many unfinished items were carried over'),
    done_hours: HoursOut('Hours of the items done by the close'),
    budget_hours: HoursOrNull('The budget at the close; null: none'),
    closed_at: z.string().describe('When the cycle closed (ISO 8601)'),
  })
  .describe('A closed client-month and the month that followed')

const OutstandingClientSchema = z
  .object({
    client_id: ClientId,
    client_name: ClientName,
    items: ItemCount('Unfinished items (pending or in progress) in open months and without a month'),
    items_in_progress: ItemCount('Of them, in progress'),
    hours: HoursOut('Their estimated hours'),
    oldest_month: Month.nullable().describe('The oldest open month holding one (YYYY-MM); null when all are without a month'),
    open_months: ItemCount('How many open months hold one'),
    undated_items: ItemCount('Of them, items without a month'),
  })
  .describe("One client's unfinished work")

export const cyclesRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'set_hour_budget',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Set the client's monthly hour budget from a month on (default: this month) until a later setting; hours null removes the " +
      'budget from that month on. The same setting again changes nothing. A closed month keeps the budget it was closed with. ' +
      'Returns every setting of the client.',
    example: {
      params: { client_id: 34, hours: 10, from_month: '2026-11' },
      result: { client_id: 34, settings: [{ from_month: '2026-11', hours: 10, set_at: '2026-11-02T09:00:00.000Z' }] },
    },
    params: z.strictObject({
      client_id: ClientId,
      hours: Hours.nullable().describe('Hours a month (0 to 1000); null removes the budget from from_month on'),
      from_month: MonthParam('The first month it holds; default this month').optional(),
    }),
    result: z
      .object({ client_id: ClientId, settings: z.array(BudgetSettingSchema).describe('Every setting, by starting month') })
      .describe("The client's budget settings"),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      await setHourBudget(ctx.write, ctx.command, {
        clientId: client.id,
        callerOrgId: ctx.orgId,
        fromMonth: p.from_month ?? monthOfDate(ctx.write.clock()),
        hours: p.hours,
      })
      await ctx.settle()
      return { client_id: client.id, settings: await hourBudgetSettings(ctx.read, client.id) }
    },
  }),
  rpc({
    name: 'get_hour_budgets',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's months, newest first, from the first month with a budget or an action item through this month (or a later " +
      'month planned ahead): budget, hours rolled over in, available, planned, done and unused hours, and the items planned, ' +
      `done and carried out. ${ROLLOVER_RULE} Empty when the client has neither.`,
    example: { params: { client_id: 34, limit: 1 }, result: [exampleMonth] },
    params: z.strictObject({
      client_id: ClientId,
      limit: z.number().int().min(1).max(120).default(12).describe('Months to answer, newest first: 1 to 120, default 12'),
    }),
    result: z.array(HourBudgetMonthSchema).describe('The months, newest first'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return hourBudgets(ctx.read, client.id, monthOfDate(ctx.write.clock()), ctx.params.limit)
    },
  }),
  rpc({
    name: 'get_consecutive_rollover_months',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "How many of the client's closed months in a row, ending with the latest closed one, carried unfinished items into the " +
      'month after (each close carrying into the next closed month). 0 when the latest closed month finished everything or ' +
      'none is closed.',
    example: { params: { client_id: 34 }, result: 2 },
    params: z.strictObject({ client_id: ClientId }),
    result: z.number().int().min(0).describe('Closed months in a row that carried items over'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return consecutiveRollovers(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_org_cycle_overview',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The owner's view of a month: for every active client of the organization, its items by status, those rolled over in and " +
      'carried out, hours used of the budget (with rollover) and whether the cycle is closed. current_month is the live month: ' +
      'is_current says the month asked is it, and a client is behind when the month is before current_month and items of it ' +
      'are still pending or in progress.',
    example: {
      params: { month: '2026-11', current_month: '2026-11' },
      result: {
        month: '2026-11',
        current_month: '2026-11',
        is_current: true,
        is_past: false,
        clients: [exampleOverviewClient],
        totals: {
          clients: 1,
          items_planned: 8,
          items_done: 5,
          items_in_progress: 1,
          items_rolled_over_in: 2,
          budget_hours: 10,
          hours_used: 6,
          clients_behind: 0,
          clients_closed: 0,
        },
      },
    },
    params: z.strictObject({
      month: MonthParam('The month to show'),
      current_month: MonthParam('The live month, as the caller counts it (e.g. this month)'),
    }),
    result: z
      .object({
        month: Month.describe('The month shown'),
        current_month: Month.describe('The live month, as passed'),
        is_current: z.boolean().describe('month is current_month'),
        is_past: z.boolean().describe('month is before current_month (only then can a client be behind)'),
        clients: z.array(OverviewClientSchema).describe('Every active client, by id'),
        totals: z
          .object({
            clients: ItemCount('Active clients'),
            items_planned: ItemCount('Items of the month'),
            items_done: ItemCount('Items done'),
            items_in_progress: ItemCount('Items in progress'),
            items_rolled_over_in: ItemCount('Items carried in'),
            budget_hours: HoursOut('Budgets added up (clients without one count 0)'),
            hours_used: HoursOut('Hours of the items done'),
            clients_behind: ItemCount('Clients behind'),
            clients_closed: ItemCount('Clients whose month is closed'),
          })
          .describe('The clients added up'),
      })
      .describe("The organization's month"),
    async handler(ctx) {
      return orgCycleOverview(ctx.read, requireOrgId(ctx.orgId), ctx.params.month, ctx.params.current_month)
    },
  }),
  rpc({
    name: 'list_cycle_tier_a_todo',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The month's tier A action items (website work the service can carry out: execute_tier_a) still pending or in progress, " +
      "across the organization's clients, with each client's name, oldest first.",
    example: {
      params: { month: '2026-11' },
      result: [
        {
          item_id: 812,
          client_id: 34,
          client_name: 'Acme Plumbing',
          month: '2026-11',
          action_type: 'title_meta_rewrite',
          page_url: 'https://acme-plumbing.example/drain-cleaning',
          description: 'Rewrite the title and meta description of the drain cleaning page (CTR 0.8% at position 4)',
          status: 'pending',
          hours: 0.5,
          impact: 72,
          carried_from_item_id: null,
          created_at: '2026-11-01T06:00:00.000Z',
        },
      ],
    },
    params: z.strictObject({ month: MonthParam('The month') }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(TierATodoSchema).describe('The items, oldest first'),
    async handler(ctx) {
      return tierATodo(ctx.read, requireOrgId(ctx.orgId), ctx.params.month, ctx.page ?? { limit: 100, offset: 0 })
    },
  }),
  rpc({
    name: 'get_resolved_cycle_pairs',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's closed client-months, each with the month that followed (its unfinished items were carried into it), " +
      'how many were carried, the hours done and the budget at the close; newest month first, then by client.',
    example: {
      params: {},
      result: [
        {
          client_id: 34,
          client_name: 'Acme Plumbing',
          month: '2026-10',
          next_month: '2026-11',
          carried: 2,
          done_hours: 9,
          budget_hours: 10,
          closed_at: '2026-11-01T06:00:00.000Z',
        },
      ],
    },
    params: z.strictObject({}),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(PairSchema).describe('The closed client-months, newest first'),
    async handler(ctx) {
      return resolvedCyclePairs(ctx.read, requireOrgId(ctx.orgId), ctx.page ?? { limit: 100, offset: 0 })
    },
  }),
  rpc({
    name: 'get_outstanding_summary',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Per client of the organization with any, the unfinished action items (pending, in progress) of its open months and ' +
      "without a month: how many, their hours and the oldest month; oldest first, and the organization's totals. A closed " +
      "month's unfinished items count once, as the items carried into the next month.",
    example: {
      params: {},
      result: {
        clients: [
          {
            client_id: 34,
            client_name: 'Acme Plumbing',
            items: 3,
            items_in_progress: 1,
            hours: 4.5,
            oldest_month: '2026-11',
            open_months: 1,
            undated_items: 0,
          },
        ],
        totals: { clients: 1, items: 3, items_in_progress: 1, hours: 4.5, oldest_month: '2026-11' },
      },
    },
    params: z.strictObject({}),
    result: z
      .object({
        clients: z.array(OutstandingClientSchema).describe('Clients with unfinished work, oldest month first'),
        totals: z
          .object({
            clients: ItemCount('Clients with unfinished work'),
            items: ItemCount('Unfinished items'),
            items_in_progress: ItemCount('Of them, in progress'),
            hours: HoursOut('Their hours'),
            oldest_month: Month.nullable().describe('The oldest open month holding one; null when none'),
          })
          .describe('The organization added up'),
      })
      .describe("The organization's unfinished work"),
    async handler(ctx) {
      return outstandingSummary(ctx.read, requireOrgId(ctx.orgId))
    },
  }),
]
