import { z } from 'zod'
import { deleteItemsForClient, reanalyzeClient, updateItemStatus } from '../../../commands/aeo/tracker.js'
import { ItemStatus, Tier } from '../../../domain/aeo/tracker/events.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Id, Month } from '../../../domain/shared/values.js'
import { captureIdsForClient } from '../../../projections/aeo/captures/queries.js'
import { itemByKey, itemsForClient, visibleItem } from '../../../projections/aeo/tracker/queries.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId, ItemId } from '../ids.js'

const domain = 'ai-visibility'

const ItemView = z.object({
  id: Id,
  client_id: ClientId,
  item_key: z.string(),
  tier: Tier,
  title: z.string(),
  status: z.string(),
  evidence: z.string(),
  note: z.string().nullable(),
  query_ids: z.array(Id),
  hits: z.array(z.object({ month: Month, count: z.number().int() })),
  hit_count: z.number().int(),
  first_month: z.string(),
  last_month: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
})

const ReanalyzeSummary = z.object({
  client_id: ClientId,
  analysis_version: z.number().int(),
  captures: z.number().int(),
  changed: z.number().int(),
  items: z.number().int(),
  kept: z.number().int(),
  opened: z.number().int(),
  removed: z.number().int(),
})

export const aeoTrackerRpcs: AnyRpc[] = [
  rpc({
    name: 'get_aeo_items',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's AI Visibility action list: tracker items ordered tier A→X then title, each with query_ids and hits per month. " +
      'Tiers: A/B website work, C Google Business / directory / review work, X market-driven. Optionally one status.',
    example: { params: { client_id: 34, status: 'open' } },
    params: z.strictObject({
      client_id: ClientId,
      status: ItemStatus.optional().describe('Only items in this status: open, in_progress, done or dismissed (default all)'),
    }),
    result: z.array(ItemView),
    async handler(ctx) {
      const { client_id, status } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      return itemsForClient(ctx.read, client_id, status === undefined ? undefined : [status])
    },
  }),
  rpc({
    name: 'get_aeo_item',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'One tracker item with its query_ids and hits per month.',
    example: { params: { item_id: 77 } },
    params: z.strictObject({ item_id: ItemId }),
    result: ItemView,
    handler: async (ctx) => visibleItem(ctx.read, ctx.orgId, ctx.params.item_id),
  }),
  rpc({
    name: 'get_aeo_item_by_key',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The tracker item of a client with this item_key (a stable finding identifier such as "listing:yelp.com").',
    example: { params: { client_id: 34, item_key: 'listing:yelp.com' } },
    params: z.strictObject({
      client_id: ClientId,
      item_key: z.string().trim().min(1).max(200).describe("The finding's stable key, e.g. listing:yelp.com"),
    }),
    result: ItemView,
    async handler(ctx) {
      const { client_id, item_key } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      const item = await itemByKey(ctx.read, client_id, item_key)
      if (!item) throw new NotFoundError('item', item_key)
      return item
    },
  }),
  rpc({
    name: 'update_aeo_item_status',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Set a tracker item to open, in_progress, done or dismissed (with an optional note); emits aeo.item.status_changed. Returns the item.',
    example: { params: { item_id: 77, client_id: 34, status: 'done', note: 'Claimed and completed the Yelp listing' } },
    params: z.strictObject({
      item_id: ItemId,
      status: ItemStatus.describe('The new status: open, in_progress, done or dismissed'),
      client_id: ClientId,
      note: z.string().max(4000).optional().describe('A note for the team, at most 4000 characters (default: the note stays)'),
    }),
    result: ItemView,
    async handler(ctx) {
      const { item_id, status, client_id, note } = ctx.params
      await updateItemStatus(ctx.write, ctx.command, { clientId: client_id, itemId: item_id, status, note, callerOrgId: ctx.orgId })
      await ctx.settle()
      return visibleItem(ctx.read, ctx.orgId, item_id)
    },
  }),
  rpc({
    name: 'delete_aeo_items_for_client',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Remove every tracker item of a client. Returns how many were removed (captures found again open new items).',
    example: { params: { client_id: 34 }, result: 15 },
    params: z.strictObject({ client_id: ClientId }),
    result: z.number().int(),
    async handler(ctx) {
      const { deleted } = await deleteItemsForClient(ctx.write, ctx.command, { clientId: ctx.params.client_id, callerOrgId: ctx.orgId })
      return deleted
    },
  }),
  rpc({
    name: 'reanalyze_aeo_client',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Re-run the current analysis over every capture of a client and rebuild its tracker items, keeping the status and note of items whose key survives. Returns a summary.',
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId }),
    result: ReanalyzeSummary,
    async handler(ctx) {
      const { client_id } = ctx.params
      await visibleClient(ctx.read, ctx.orgId, client_id)
      const captureIds = await captureIdsForClient(ctx.read, client_id)
      const { summary } = await reanalyzeClient(ctx.write, ctx.command, { clientId: client_id, callerOrgId: ctx.orgId, captureIds })
      return summary
    },
  }),
]
