import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'
import { EngineValue } from '../engines.js'

export const Tier = z.enum(['A', 'B', 'C', 'X'])
export const ItemStatus = z.enum(['open', 'in_progress', 'done', 'dismissed'])

const NewItem = z.object({
  item_id: Id,
  item_key: z.string().min(1).max(200),
  tier: Tier,
  title: z.string().max(500),
  evidence: z.string().max(4000),
})

/**
 * A client's tracker is one stream, `aeo_tracker-<client_id>`: whether a finding is new, carried or
 * resolved is decided against every item of the client. One `AeoCaptureTracked` per analyzed capture
 * carries everything the `aeo.capture.ingested` webhook needs.
 */
export const AeoCaptureTracked = z.object({
  client_id: Id,
  capture_id: Id,
  query_id: Id,
  engine: EngineValue,
  month: Month,
  scorecard: z.record(z.string(), z.unknown()),
  /** Items seen for the first time (opened now). */
  opened: z.array(NewItem),
  /** item_keys found again. */
  carried: z.array(z.string()),
  /** The carried items with their ids (so the projector never looks a key up: a replay cannot attach to a later item). */
  carried_items: z.array(z.object({ item_id: Id, item_key: z.string() })).optional(),
  /** item_keys this question and engine found before and no longer find. */
  resolved: z.array(z.string()),
})

export const AeoItemStatusChanged = z.object({
  client_id: Id,
  item_id: Id,
  item_key: z.string(),
  from: ItemStatus,
  to: ItemStatus,
  note: z.string().max(4000).nullable(),
})

export const AeoItemsDeleted = z.object({ client_id: Id, item_ids: z.array(Id) })

/**
 * reanalyze_aeo_client: every item rebuilt from the re-analyzed captures; statuses and notes of items whose
 * item_key survives are kept (carried in `items`).
 */
export const AeoTrackerRebuilt = z.object({
  client_id: Id,
  analysis_version: z.number().int().positive(),
  items: z.array(
    NewItem.extend({
      status: ItemStatus,
      note: z.string().nullable(),
      hits: z.array(z.object({ capture_id: Id, query_id: Id, engine: EngineValue, month: Month })),
    }),
  ),
  /** Every capture re-analyzed (also those with no findings), so "found before" is rebuilt per question and engine. */
  captures: z.array(z.object({ capture_id: Id, query_id: Id, engine: EngineValue, month: Month })).optional(),
})

export const aeoTrackerEventSchemas = { AeoCaptureTracked, AeoItemStatusChanged, AeoItemsDeleted, AeoTrackerRebuilt } as const
type Schemas = typeof aeoTrackerEventSchemas
export type AeoTrackerEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
