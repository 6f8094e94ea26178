import { z } from 'zod'
import { RemoteReceipt } from '../publishing/site-publisher/receipt.js'
import { Id } from '../shared/values.js'

export const SiteEditOperation = z.string().trim().min(1, 'must not be empty').max(100)
/** The change itself, as text (prompted_edit writes JSON; see domain/site-edits/rewrite-payload.ts). */
export const SITE_EDIT_PAYLOAD_MAX_LENGTH = 1_100_000
export const SiteEditPayload = z.string().max(SITE_EDIT_PAYLOAD_MAX_LENGTH)

/**
 * One site edit: stream `site_edit-<edit_id>`, so that an apply and a rollback of the same edit are decided
 * against each other. `page_id` is the page the edit targets when it is known (prompted_edit), `job_id` the
 * prompted_edit job that staged it (null: create_site_edit).
 */
export const SiteEditStaged = z.object({
  edit_id: Id,
  client_id: Id,
  operation: SiteEditOperation,
  page_url: z.string().max(2000),
  page_id: Id.nullable(),
  payload: SiteEditPayload,
  job_id: Id.nullable(),
})

/**
 * The publisher published the edit. `approved_by`: who approved it (apply_site_edit's approved_by, or the
 * caller when none was given). The snapshot ids are the page's content before and after (null when the
 * publisher keeps none).
 */
export const SiteEditApplied = z.object({
  edit_id: Id,
  approved_by: z.string().max(200),
  publisher: z.string().max(100),
  before_snapshot_id: Id.nullable(),
  after_snapshot_id: Id.nullable(),
  /** What a site publisher changed on the client's site, to undo exactly (absent: the built-in publisher, or older events). */
  remote: RemoteReceipt.nullable().optional(),
})

/** An apply attempt the publisher refused or failed: the edit stays proposed and can be applied again. */
export const SiteEditApplyFailed = z.object({
  edit_id: Id,
  approved_by: z.string().max(200),
  publisher: z.string().max(100),
  error: z.string().max(2000),
})

/** The publisher restored the content from before the edit (`restored_snapshot_id`: the new snapshot equal to it). */
export const SiteEditRolledBack = z.object({
  edit_id: Id,
  publisher: z.string().max(100),
  restored_snapshot_id: Id.nullable(),
})

export const siteEditEventSchemas = { SiteEditStaged, SiteEditApplied, SiteEditApplyFailed, SiteEditRolledBack } as const
type Schemas = typeof siteEditEventSchemas
export type SiteEditEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
