import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'

/**
 * Action items: one stream per client-month, `action_items-<client_id>-<month|none>` (the month's cycle).
 * The invariants are the month's: one item per source (the strategist running twice adds nothing), and a
 * closed month takes no new items. Items without a month (`month: null`) live in `…-none`.
 */
export const ACTION_ITEM_STATUSES = ['pending', 'in_progress', 'done', 'skipped'] as const
export const ActionItemStatus = z
  .enum(ACTION_ITEM_STATUSES)
  .describe('pending (planned, not started), in_progress, done (completed_at set) or skipped (decided against)')
export type ActionItemStatus = z.infer<typeof ActionItemStatus>

/** Statuses that are still work to do: carried into the next month when its cycle closes. */
export const UNFINISHED_STATUSES: readonly ActionItemStatus[] = ['pending', 'in_progress']

/** A/B website work (A: the service can do it itself; B: a person on the site), C off-site, X market-driven. */
export const ActionItemTier = z
  .enum(['A', 'B', 'C', 'X'])
  .describe(
    'A (website work the service can carry out: execute_tier_a), B (website work for a person), C (off-site: Google Business, directories, reviews), X (market-driven: tracked, not promised)',
  )
export type ActionItemTier = z.infer<typeof ActionItemTier>

/** Who or what raised an item. */
export const ActionItemSourceKind = z
  .enum(['insight', 'aeo_item', 'person', 'carry_over'])
  .describe(
    'insight (an SEO insight), aeo_item (an AI Visibility tracker item), person (added by hand), carry_over (unfinished last month)',
  )
export const ActionItemSource = z.object({
  kind: ActionItemSourceKind,
  /** The insight's, tracker item's or earlier action item's id; null for a person. */
  id: Id.nullable(),
  /** Who added it by hand (actor id), '' otherwise. */
  by: z.string().max(200),
})
export type ActionItemSource = z.infer<typeof ActionItemSource>

export const ActionType = z.string().trim().min(1, 'must not be empty').max(100)
export const ItemPageUrl = z.string().max(2000)
export const ItemDescription = z.string().trim().min(1, 'must not be empty').max(4000)
export const Hours = z.number().min(0).max(1000)

export const ActionItemAdded = z.object({
  item_id: Id,
  client_id: Id,
  month: Month.nullable(),
  action_type: ActionType,
  page_url: ItemPageUrl,
  description: ItemDescription,
  tier: ActionItemTier,
  hours: Hours,
  /** Expected impact, 0–100 (the strategist's ranking); null when added by hand without one. */
  impact: z.number().min(0).max(100).nullable(),
  source: ActionItemSource,
  /**
   * What makes two items the same within a month (`insight:12`, `aeo_item:4`, `carry:88`; a person's item
   * has none). An add with a key the month already holds adds nothing: the strategist is idempotent.
   */
  source_key: z.string().min(1).max(300).nullable(),
  /** The item of an earlier month this one continues (carry-over), else null. */
  carried_from_item_id: Id.nullable(),
  /** The job that added it (strategist, …), else null. */
  job_id: Id.nullable(),
})

/** update_action_item: the fields as they are now (absolute values, so a replay is exact). */
export const ActionItemUpdated = z.object({
  item_id: Id,
  client_id: Id,
  month: Month.nullable(),
  action_type: ActionType,
  page_url: ItemPageUrl,
  description: ItemDescription,
  tier: ActionItemTier,
  hours: Hours,
})

/** The action_item.status_changed webhook. */
export const ActionItemStatusChanged = z.object({
  item_id: Id,
  client_id: Id,
  month: Month.nullable(),
  action_type: ActionType,
  page_url: ItemPageUrl,
  from: ActionItemStatus,
  status: ActionItemStatus,
  /** Set when it becomes done (the event's time), null otherwise. */
  completed_at: z.iso.datetime({ offset: true }).nullable(),
  note: z.string().max(2000),
  /** The site edit that carried it out (execute_tier_a, fulfill_selected), else null. */
  site_edit_id: Id.nullable(),
})

/** delete_action_items_for_month, or a person's delete. */
export const ActionItemDeleted = z.object({ item_id: Id, client_id: Id, month: Month.nullable() })

/**
 * The month's cycle closed (the next month's strategist, or close_action_item_month): its unfinished items
 * were carried into `next_month` as new items (`carried`: old id → new id). A closed month takes no new items.
 */
export const ActionItemMonthClosed = z.object({
  client_id: Id,
  month: Month,
  next_month: Month,
  carried: z.array(z.object({ item_id: Id, new_item_id: Id })),
  /** The month's hour budget as it was at the close (null: none set), and hours of done items. */
  budget_hours: Hours.nullable(),
  done_hours: Hours,
})

export const actionItemsEventSchemas = {
  ActionItemAdded,
  ActionItemUpdated,
  ActionItemStatusChanged,
  ActionItemDeleted,
  ActionItemMonthClosed,
} as const
type Schemas = typeof actionItemsEventSchemas
export type ActionItemEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
