import { z } from 'zod'
import {
  addActionItems,
  closeActionItemMonth,
  deleteActionItems,
  setActionItemStatus,
  updateActionItem,
} from '../../../commands/planning/action-items.js'
import { hourBudgetFor } from '../../../commands/planning/cycles.js'
import { actorLabel } from '../../../commands/site-edits.js'
import { actionTypeSpec } from '../../../domain/planning/action-items/action-types.js'
import {
  ActionItemSourceKind,
  ActionItemStatus,
  ActionItemTier,
  ActionType,
  Hours,
  ItemDescription,
  ItemPageUrl,
} from '../../../domain/planning/action-items/events.js'
import { monthAfter } from '../../../domain/shared/months.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  actionItemMonthsOfClient,
  actionItemMonthsOfOrg,
  actionItemsOfClient,
  actionItemsOfOrg,
  carriedFrom,
  closedMonth,
  findActionItemId,
  visibleActionItem,
} from '../../../projections/planning/action-items/queries.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'planning'

const ActionItemId = Id.describe('The action item (an integer id, as add_action_item or get_action_items answered)')
const MonthParam = Month.describe('The month, YYYY-MM')
/** A month, or null / '' for items without one (the spec lets an item's month be empty). */
const MonthOrNone = z
  .union([Month, z.literal(''), z.null()])
  .transform((m) => (m === '' ? null : m))
  .describe("The month, YYYY-MM; null or '' for items without a month")
const Status = ActionItemStatus
const Statuses = z
  .union([Status, z.array(Status).min(1).max(4)])
  .transform((s) => (Array.isArray(s) ? s : [s]))
  .describe('Only items with this status, or with any of these statuses')

const ItemSchema = z
  .object({
    id: ActionItemId,
    client_id: ClientId,
    month: z.string().nullable().describe('The month it is planned in (YYYY-MM), null when it has none'),
    action_type: z.string().describe('What to do: one of the service’s action types (see the guide) or free text'),
    page_url: z.string().describe('The page it is about; empty when none'),
    description: z.string().describe('The work, in a sentence'),
    status: Status,
    tier: ActionItemTier,
    hours: z.number().describe('Estimated hours of work'),
    impact: z.number().nullable().describe('Expected impact 0–100 (the strategist’s ranking); null when added by hand'),
    source: z
      .object({
        kind: ActionItemSourceKind,
        id: z.number().nullable().describe('The insight’s, tracker item’s or earlier action item’s id; null for a person'),
        by: z.string().describe("Who added it by hand (the caller's actor, e.g. api_key:12); empty otherwise"),
      })
      .describe('Who or what raised it'),
    carried_from_item_id: z.number().nullable().describe('The earlier month’s item this one continues (carry-over), else null'),
    carried_to_item_id: z.number().nullable().describe('When its month closed unfinished: the item continuing it next month, else null'),
    job_id: z.number().nullable().describe('The job that added it (strategist, …), else null'),
    site_edit_id: z.number().nullable().describe('The site edit that carried it out, else null'),
    note: z.string().describe('The last status change’s note; empty when none'),
    completed_at: z.string().nullable().describe('When it became done (ISO 8601); null unless done'),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
  })
  .describe('An action item')

const exampleItem = {
  id: 311,
  client_id: 34,
  month: '2026-11',
  action_type: 'title_meta_rewrite',
  page_url: 'https://acme-plumbing.example.com/drain-cleaning',
  description: 'Rewrite the drain cleaning title and meta description: 2.1k impressions at 0.6% CTR',
  status: 'done' as const,
  tier: 'A' as const,
  hours: 0.5,
  impact: 72,
  source: { kind: 'insight' as const, id: 58, by: '' },
  carried_from_item_id: null,
  carried_to_item_id: null,
  job_id: 901,
  site_edit_id: 77,
  note: 'Applied through the site edit',
  completed_at: '2026-11-12T10:04:00.000Z',
  created_at: '2026-11-01T06:00:00.000Z',
  updated_at: '2026-11-12T10:04:00.000Z',
}

const MonthSummarySchema = z
  .object({
    month: z.string().describe('YYYY-MM'),
    items: z.number().int().describe('Live (not deleted) items of the month'),
    pending: z.number().int().describe('Items pending'),
    in_progress: z.number().int().describe('Items in progress'),
    done: z.number().int().describe('Items done'),
    skipped: z.number().int().describe('Items skipped'),
    hours: z.number().describe('Estimated hours of every item'),
    done_hours: z.number().describe('Estimated hours of the done items'),
    closed: z.number().int().describe("Clients whose month's cycle is closed (for one client: 0 or 1)"),
  })
  .describe('A month of action items, counted')

const exampleMonth = {
  month: '2026-11',
  items: 9,
  pending: 3,
  in_progress: 1,
  done: 4,
  skipped: 1,
  hours: 11.5,
  done_hours: 5,
  closed: 0,
}

const Day = z.iso.date().describe('A UTC day, YYYY-MM-DD')
const CompletedBetween = z
  .union([
    z.tuple([Day, Day]).describe('[start, end]'),
    z.strictObject({ start: Day.describe('The first day, included'), end: Day.describe('The last day, included') }),
  ])
  .transform((r) => (Array.isArray(r) ? { start: r[0], end: r[1] } : r))
  .describe('Only items completed within these UTC days, both included: [start, end] or {start, end} (YYYY-MM-DD each)')

/** The item as the read model holds it once the write is applied. */
async function settled(ctx: { settle(): Promise<void> }, read: () => Promise<z.infer<typeof ItemSchema>>) {
  await ctx.settle()
  return read()
}

export const actionItemsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'add_action_item',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Add an action item to a client's month (no month: an item without one). tier and hours default from the action type " +
      '(the guide lists the service’s types; another type: B and 1 hour). A status other than pending is set right after. ' +
      'A closed month takes no new items (409 action_item_month_closed: add it to the next month). Returns the item.',
    example: {
      params: {
        client_id: 34,
        month: '2026-11',
        action_type: 'improve_content',
        page_url: 'https://acme-plumbing.example.com/water-heaters',
        description: 'Add a section on tankless heaters: the page fell from 4 to 11 for "tankless water heater install"',
      },
      result: {
        ...exampleItem,
        id: 312,
        action_type: 'improve_content',
        page_url: 'https://acme-plumbing.example.com/water-heaters',
        description: 'Add a section on tankless heaters: the page fell from 4 to 11 for "tankless water heater install"',
        status: 'pending',
        tier: 'B',
        hours: 2,
        impact: null,
        source: { kind: 'person', id: null, by: 'api_key:12' },
        job_id: null,
        site_edit_id: null,
        note: '',
        completed_at: null,
        created_at: '2026-11-14T09:30:00.000Z',
        updated_at: '2026-11-14T09:30:00.000Z',
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      month: MonthOrNone.optional().describe("The month to plan it in, YYYY-MM; omitted, null or '': no month"),
      action_type: ActionType.describe('What to do: one of the service’s action types (see the guide) or free text'),
      page_url: ItemPageUrl.default('').describe('The page it is about (default empty: none)'),
      description: ItemDescription.describe('The work, in a sentence'),
      tier: ActionItemTier.optional().describe("A, B, C or X (default: the action type's, else B)"),
      hours: Hours.optional().describe("Estimated hours, 0 to 1000 (default: the action type's, else 1)"),
      status: Status.optional().describe('Its status from the start (default pending)'),
    }),
    result: ItemSchema,
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const spec = actionTypeSpec(p.action_type)
      const target = { clientId: client.id, callerOrgId: ctx.orgId, month: p.month ?? null }
      const { added } = await addActionItems(ctx.write, ctx.command, target, [
        {
          action_type: p.action_type,
          page_url: p.page_url,
          description: p.description,
          tier: p.tier ?? spec?.tier ?? 'B',
          hours: p.hours ?? spec?.hours ?? 1,
          impact: null,
          source: { kind: 'person', id: null, by: actorLabel(ctx.command.actor) },
          source_key: null,
          carried_from_item_id: null,
          job_id: null,
        },
      ])
      const itemId = added[0]
      if (itemId === undefined) throw new Error(`client ${client.id}: an item without a source key was not added`)
      if (p.status !== undefined && p.status !== 'pending') {
        await setActionItemStatus(ctx.write, ctx.command, { ...target, itemId }, { status: p.status })
      }
      return settled(ctx, () => visibleActionItem(ctx.read, ctx.orgId, itemId))
    },
  }),
  rpc({
    name: 'update_action_item',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Change an action item’s action type, page, description, tier or hours (the named fields; the same values again change ' +
      'nothing). Its status changes with set_action_item_status. Returns the item.',
    example: { params: { item_id: 311, hours: 1, tier: 'A' }, result: { ...exampleItem, hours: 1 } },
    params: z.strictObject({
      item_id: ActionItemId,
      action_type: ActionType.optional().describe('The new action type'),
      page_url: ItemPageUrl.optional().describe('The new page (empty: none)'),
      description: ItemDescription.optional().describe('The new description'),
      tier: ActionItemTier.optional().describe('The new tier'),
      hours: Hours.optional().describe('The new estimate, 0 to 1000 hours'),
    }),
    result: ItemSchema,
    async handler(ctx) {
      const { item_id, ...fields } = ctx.params
      const item = await visibleActionItem(ctx.read, ctx.orgId, item_id)
      await updateActionItem(
        ctx.write,
        ctx.command,
        { clientId: item.client_id, callerOrgId: ctx.orgId, month: item.month, itemId: item.id },
        Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
      )
      return settled(ctx, () => visibleActionItem(ctx.read, ctx.orgId, item.id))
    },
  }),
  rpc({
    name: 'set_action_item_status',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Set an action item’s status: pending, in_progress, done (completed_at set now) or skipped; any status may follow any ' +
      'other. Each change sends the action_item.status_changed webhook; the same status again changes nothing. Returns the item.',
    example: {
      params: { item_id: 311, status: 'done', note: 'Applied through the site edit' },
      result: exampleItem,
    },
    params: z.strictObject({
      item_id: ActionItemId,
      status: Status,
      note: z.string().max(2000).optional().describe('Why, shown with the item (default empty)'),
    }),
    result: ItemSchema,
    async handler(ctx) {
      const p = ctx.params
      const item = await visibleActionItem(ctx.read, ctx.orgId, p.item_id)
      await setActionItemStatus(
        ctx.write,
        ctx.command,
        { clientId: item.client_id, callerOrgId: ctx.orgId, month: item.month, itemId: item.id },
        { status: p.status, note: p.note ?? '' },
      )
      return settled(ctx, () => visibleActionItem(ctx.read, ctx.orgId, item.id))
    },
  }),
  rpc({
    name: 'delete_action_item',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Delete an action item: it leaves every list and its id answers 404 from then on (its history stays in the log).',
    example: { params: { item_id: 312 }, result: { item_id: 312, deleted: true } },
    params: z.strictObject({ item_id: ActionItemId }),
    result: z
      .object({
        item_id: ActionItemId,
        deleted: z.boolean().describe('true: the item is deleted'),
      })
      .describe('What was deleted'),
    async handler(ctx) {
      const item = await visibleActionItem(ctx.read, ctx.orgId, ctx.params.item_id)
      const { deleted } = await deleteActionItems(
        ctx.write,
        ctx.command,
        { clientId: item.client_id, callerOrgId: ctx.orgId, month: item.month },
        { itemIds: [item.id], preserve: [] },
      )
      await ctx.settle()
      return { item_id: item.id, deleted: deleted > 0 }
    },
  }),
  rpc({
    name: 'delete_action_items_for_month',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Delete every action item of a client's month, except those whose status is in preserve_statuses (e.g. ['done', " +
      "'skipped'] keeps the record of the work). Returns how many were deleted.",
    example: { params: { client_id: 34, month: '2026-11', preserve_statuses: ['done', 'skipped'] }, result: { deleted: 4 } },
    params: z.strictObject({
      client_id: ClientId,
      month: MonthParam,
      preserve_statuses: z
        .array(Status)
        .max(4)
        .nullable()
        .optional()
        .describe('Items with these statuses are kept (default none: every item is deleted)'),
    }),
    result: z.object({ deleted: z.number().int().describe('Items deleted now') }).describe('How many items were deleted'),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const { deleted } = await deleteActionItems(
        ctx.write,
        ctx.command,
        { clientId: client.id, callerOrgId: ctx.orgId, month: p.month },
        { itemIds: 'all', preserve: p.preserve_statuses ?? [] },
      )
      await ctx.settle()
      return { deleted }
    },
  }),
  rpc({
    name: 'close_action_item_month',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Close a client's month: its unfinished items (pending, in_progress) are carried into next_month (default the month " +
      'after) as new items (source carry_over, carried_from_item_id), and the month records its hour budget and the hours ' +
      'done; a closed month takes no new items. Closing it again changes nothing (closed_now false). Returns the close.',
    example: {
      params: { client_id: 34, month: '2026-10' },
      result: {
        client_id: 34,
        month: '2026-10',
        next_month: '2026-11',
        carried: [{ item_id: 280, new_item_id: 305 }],
        closed_now: true,
        budget_hours: 10,
        done_hours: 7.5,
        closed_at: '2026-11-01T06:00:00.000Z',
      },
    },
    params: z.strictObject({
      client_id: ClientId,
      month: MonthParam.describe('The month to close, YYYY-MM'),
      next_month: Month.optional().describe('Where its unfinished items go, YYYY-MM, after month (default the month after)'),
    }),
    result: z
      .object({
        client_id: ClientId,
        month: z.string().describe('The month closed'),
        next_month: z.string().describe('The month its unfinished items went to'),
        carried: z
          .array(
            z.object({
              item_id: ActionItemId.describe('The unfinished item of the closed month'),
              new_item_id: ActionItemId.describe('The item continuing it in next_month'),
            }),
          )
          .describe('The items carried over'),
        closed_now: z.boolean().describe('false: it was closed already (nothing changed)'),
        budget_hours: z.number().nullable().describe('The month’s hour budget at the close (null: none set)'),
        done_hours: z.number().describe('Estimated hours of the items done in the month'),
        closed_at: z.string().describe('When the month closed (ISO 8601)'),
      })
      .describe("The month's close"),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const nextMonth = p.next_month ?? monthAfter(p.month)
      if (nextMonth <= p.month) {
        throw new DomainError('validation_failed', 'next_month must come after month', `month ${p.month}, next_month ${nextMonth}`)
      }
      const closed = await closeActionItemMonth(ctx.write, ctx.command, {
        clientId: client.id,
        callerOrgId: ctx.orgId,
        month: p.month,
        nextMonth,
        budgetHours: await hourBudgetFor(ctx.write, client.id, p.month),
      })
      await ctx.settle()
      const row = await closedMonth(ctx.read, client.id, p.month)
      if (!row) throw new Error(`client ${client.id}: month ${p.month} closed but not in the read model`)
      return {
        client_id: client.id,
        month: row.month,
        next_month: row.next_month,
        carried: await carriedFrom(ctx.read, client.id, p.month),
        closed_now: closed.closedNow,
        budget_hours: row.budget_hours,
        done_hours: row.done_hours,
        closed_at: row.closed_at,
      }
    },
  }),
  rpc({
    name: 'find_action_item_id',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The id of the first (lowest id) live action item of the client's month with the action type, on page_url when given, " +
      'whose description contains description_contains (case-insensitive) when given; null when none.',
    example: {
      params: { client_id: 34, month: '2026-11', action_type: 'title_meta_rewrite', description_contains: 'drain cleaning' },
      result: 311,
    },
    params: z.strictObject({
      client_id: ClientId,
      month: MonthOrNone,
      action_type: ActionType.describe('The action type, exactly'),
      page_url: ItemPageUrl.optional().describe('Only items about this page, exactly (empty: items about no page)'),
      description_contains: z.string().max(4000).optional().describe('Only items whose description contains this text, any case'),
    }),
    result: ActionItemId.nullable().describe('The item id; null when none matches'),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      return findActionItemId(ctx.read, client.id, {
        month: p.month,
        actionType: p.action_type,
        ...(p.page_url === undefined ? {} : { pageUrl: p.page_url }),
        ...(p.description_contains === undefined ? {} : { descriptionContains: p.description_contains }),
      })
    },
  }),
  rpc({
    name: 'get_action_item',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One action item; a deleted one answers 404.',
    example: { params: { item_id: 311 }, result: exampleItem },
    params: z.strictObject({ item_id: ActionItemId }),
    result: ItemSchema,
    handler: async (ctx) => visibleActionItem(ctx.read, ctx.orgId, ctx.params.item_id),
  }),
  rpc({
    name: 'get_action_items',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's live action items, by month (items without one first) then id. month narrows to one month (null or '': " +
      'items without a month), plus those without a month when include_null_month is true; omitted, every month. ' +
      'completed_between is [start, end] or {start, end}, UTC days YYYY-MM-DD, both included.',
    example: { params: { client_id: 34, month: '2026-11', status: 'done' }, result: [exampleItem] },
    params: z.strictObject({
      client_id: ClientId,
      month: MonthOrNone.optional().describe("Only this month, YYYY-MM (null or '': items without a month); omitted: every month"),
      status: Statuses.optional(),
      action_type: ActionType.optional().describe('Only this action type, exactly'),
      include_null_month: z.boolean().default(false).describe('With month: also the items without a month (default false)'),
      completed_between: CompletedBetween.optional(),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 500 },
    result: z.array(ItemSchema).describe('The items'),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      return actionItemsOfClient(
        ctx.read,
        client.id,
        {
          ...(p.month === undefined ? {} : { month: p.month }),
          includeNullMonth: p.include_null_month,
          ...(p.status === undefined ? {} : { statuses: p.status }),
          ...(p.action_type === undefined ? {} : { actionType: p.action_type }),
          ...(p.completed_between === undefined ? {} : { completedBetween: p.completed_between }),
        },
        ctx.page!,
      )
    },
  }),
  rpc({
    name: 'list_action_item_months_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's months of action items, newest first: each month's live items counted by status, their hours, and " +
      'whether its cycle closed. Items without a month are not listed (get_action_items with month null).',
    example: { params: { client_id: 34 }, result: [exampleMonth, { ...exampleMonth, month: '2026-10', pending: 0, closed: 1 }] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(MonthSummarySchema).describe('The months, newest first'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return actionItemMonthsOfClient(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'list_action_item_months_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's months of action items, newest first: each month's live items of every client counted by status, " +
      'their hours, and how many clients closed its cycle.',
    example: { params: {}, result: [{ ...exampleMonth, items: 41, closed: 0 }] },
    params: z.strictObject({}),
    result: z.array(MonthSummarySchema).describe('The months, newest first'),
    handler: async (ctx) => actionItemMonthsOfOrg(ctx.read, requireOrgId(ctx.orgId)),
  }),
  rpc({
    name: 'list_action_items_for_org_filtered',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's live action items, by client, month then id: of one month (null or '': items without a month), " +
      'with a status, with or without completed_at, or completed since a day or instant.',
    example: { params: { month: '2026-11', completed_at_present: true }, result: [exampleItem] },
    params: z.strictObject({
      month: MonthOrNone.optional().describe("Only this month, YYYY-MM (null or '': items without a month); omitted: every month"),
      status: Statuses.optional(),
      completed_at_present: z.boolean().optional().describe('true: only items with completed_at (done); false: only those without'),
      completed_since: z
        .union([z.iso.date(), z.iso.datetime({ offset: true })])
        .optional()
        .describe('Only items completed at or after this: a day YYYY-MM-DD (00:00 UTC) or an ISO 8601 instant with offset'),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 500 },
    result: z.array(ItemSchema).describe('The items'),
    async handler(ctx) {
      const p = ctx.params
      return actionItemsOfOrg(
        ctx.read,
        requireOrgId(ctx.orgId),
        {
          ...(p.month === undefined ? {} : { month: p.month }),
          ...(p.status === undefined ? {} : { statuses: p.status }),
          ...(p.completed_at_present === undefined ? {} : { completedAtPresent: p.completed_at_present }),
          ...(p.completed_since === undefined
            ? {}
            : { completedSince: new Date(p.completed_since.length === 10 ? `${p.completed_since}T00:00:00.000Z` : p.completed_since) }),
        },
        ctx.page!,
      )
    },
  }),
]
