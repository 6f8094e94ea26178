import type { AppliedReceipt } from '../domain/site-edits/site-edit.js'
import type { CommandContext } from './command-handler.js'

/** A staged edit as a publisher sees it. */
export interface EditToPublish {
  readonly editId: number
  readonly orgId: number
  readonly clientId: number
  readonly operation: string
  readonly pageUrl: string
  readonly pageId: number | null
  /** The edit's payload text (an elementor_rewrite payload is JSON: domain/site-edits/rewrite-payload.ts). */
  readonly payload: string
}

/**
 * The port apply_site_edit and rollback_site_edit publish through. The built-in publisher
 * (processors/site-edits/built-in-publisher.ts) records the page's new content as a page snapshot; a
 * WordPress publisher would push to the live site. It acts with the caller's command context, so whatever
 * it records is attributed to the caller.
 */
export interface SitePublisher {
  /** Recorded with every apply and rollback (e.g. `built-in`). */
  readonly name: string
  /** Publishes the edit. Throws SitePublishError when it cannot (the attempt is recorded as failed). */
  publish(edit: EditToPublish, context: CommandContext): Promise<AppliedReceipt>
  /** Puts back the content from before the edit, as `receipt` (from publish) describes it. */
  restore(edit: EditToPublish, receipt: AppliedReceipt, context: CommandContext): Promise<{ restored_snapshot_id: number | null }>
}

/**
 * A publish or restore the publisher refused or failed. `site_edit_unpublishable`: the edit itself cannot be
 * published as it is (no content in its payload, no such page); `site_publish_failed`: the site did not take it.
 */
export class SitePublishError extends Error {
  override readonly name = 'SitePublishError'
  constructor(
    readonly code: 'site_edit_unpublishable' | 'site_publish_failed',
    message: string,
  ) {
    super(message)
  }
}
