import type { AppliedReceipt } from '../domain/site-edits/site-edit.js'
import type { CommandContext, WriteDeps } from './command-handler.js'

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

/** What publish answered, with the publisher that did it when the publisher chose one (the site publisher does). */
export interface PublishedReceipt extends AppliedReceipt {
  readonly publisher?: string
}

/** An applied edit as rollback hands it back: publish's receipt, and the publisher that applied it. */
export interface AppliedRecord extends AppliedReceipt {
  readonly publisher: string
}

/**
 * The port apply_site_edit and rollback_site_edit publish through. The built-in publisher
 * (processors/site-edits/built-in-publisher.ts) records the page's new content as a page snapshot; the site
 * publisher (processors/site-edits/site-publisher.ts) pushes to the client's WordPress site when it is
 * connected and records the snapshot too. It acts with the caller's command context and write deps, so whatever
 * it records is attributed to the caller and waited for by the caller's read-your-writes, failures included.
 */
export interface SitePublisher {
  /** Recorded with every apply and rollback (e.g. `built-in`) unless the receipt names who published. */
  readonly name: string
  /** Publishes the edit. Throws SitePublishError when it cannot (the attempt is recorded as failed). */
  publish(edit: EditToPublish, context: CommandContext, write: WriteDeps): Promise<PublishedReceipt>
  /** Puts back the content from before the edit, as `applied` (publish's receipt) describes it. */
  restore(
    edit: EditToPublish,
    applied: AppliedRecord,
    context: CommandContext,
    write: WriteDeps,
  ): Promise<{ restored_snapshot_id: number | null; publisher?: string }>
}

/**
 * A publish or restore the publisher refused or failed. `site_edit_unpublishable`: the edit itself cannot be
 * published as it is (no content in its payload, no such page); `site_publish_failed`: the site did not take it;
 * `site_edit_conflict`: the page changed on the site since the edit was written (or since it was applied, for a
 * rollback), so writing would overwrite someone's change. `publisher`: who refused, when the publisher chose one.
 */
export class SitePublishError extends Error {
  override readonly name = 'SitePublishError'
  constructor(
    readonly code: 'site_edit_unpublishable' | 'site_publish_failed' | 'site_edit_conflict',
    message: string,
    readonly publisher?: string,
  ) {
    super(message)
  }
}
