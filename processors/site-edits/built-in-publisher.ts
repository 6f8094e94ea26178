import { recordSnapshot } from '../../commands/pages.js'
import { SitePublishError, type EditToPublish, type SitePublisher } from '../../commands/site-edits-publisher.js'
import { pageUrlKey } from '../../domain/pages/url.js'
import { parseRedirectPayload, REDIRECT_OPERATION } from '../../domain/publishing/redirects/redirect-payload.js'
import { publishablePayload } from '../../domain/site-edits/rewrite-payload.js'
import { latestSnapshot, pagesForClient, snapshotById, type PageRow } from '../../projections/pages/queries.js'
import type { ReadDb } from '../../projections/tables.js'

export const BUILT_IN_PUBLISHER = 'built-in'

/** The edit's page: by the payload's page_id, else the edit's page_id, else its page_url, within the edit's client. */
async function targetPage(read: ReadDb, edit: EditToPublish, payloadPageId: number | undefined): Promise<PageRow> {
  const pages = await pagesForClient(read, edit.clientId, false)
  const id = payloadPageId ?? edit.pageId
  const page =
    id !== null && id !== undefined
      ? pages.find((p) => p.id === id)
      : edit.pageUrl
        ? pages.find((p) => pageUrlKey(p.url) === pageUrlKey(edit.pageUrl))
        : undefined
  if (!page || page.org_id !== edit.orgId) {
    throw new SitePublishError(
      'site_edit_unpublishable',
      `the edit names no page of client ${edit.clientId} (page_id ${id ?? 'none'}, page_url "${edit.pageUrl}")`,
    )
  }
  return page
}

/**
 * The publisher the service has without a connected site: the page's content lives in its snapshots, so
 * publishing records `proposed_content` as the page's new snapshot (source site_edit) and restoring records
 * a new snapshot equal to the one from before (source site_edit_rollback; empty content when the page had
 * none). Every change is therefore visible (get_latest_snapshot, get_snapshots_for_page) and reversible. A
 * redirect edit records no snapshot either way: its applied or rolled-back edit is the redirect's record.
 */
export function builtInSitePublisher(deps: { readonly read: ReadDb }): SitePublisher {
  return {
    name: BUILT_IN_PUBLISHER,
    async publish(edit, context, write) {
      if (edit.operation === REDIRECT_OPERATION) {
        // A redirect changes no page's content: the applied edit itself is the record (list_redirects reads it).
        const redirect = parseRedirectPayload(edit.payload)
        if ('problem' in redirect) throw new SitePublishError('site_edit_unpublishable', `not a redirect: ${redirect.problem}`)
        return { before_snapshot_id: null, after_snapshot_id: null }
      }
      const payload = publishablePayload(edit.payload)
      if (!payload) throw new SitePublishError('site_edit_unpublishable', 'the payload is not JSON carrying proposed_content (a string)')
      const page = await targetPage(deps.read, edit, payload.page_id)
      const before = await latestSnapshot(deps.read, page.id)
      const after = await recordSnapshot(write, context, {
        orgId: edit.orgId,
        clientId: edit.clientId,
        pageId: page.id,
        title: payload.title ?? before?.title ?? page.title,
        content: payload.proposed_content,
        source: 'site_edit',
        editId: edit.editId,
      })
      return { before_snapshot_id: before?.id ?? null, after_snapshot_id: after.snapshotId }
    },
    async restore(edit, receipt, context, write) {
      if (edit.operation === REDIRECT_OPERATION) return { restored_snapshot_id: null } // the rolled-back edit is the record
      const after = receipt.after_snapshot_id === null ? undefined : await snapshotById(deps.read, receipt.after_snapshot_id)
      if (!after) throw new SitePublishError('site_publish_failed', 'the snapshot the edit published is gone; nothing to restore from')
      const before = receipt.before_snapshot_id === null ? undefined : await snapshotById(deps.read, receipt.before_snapshot_id)
      const restored = await recordSnapshot(write, context, {
        orgId: edit.orgId,
        clientId: edit.clientId,
        pageId: after.page_id,
        title: before?.title ?? after.title,
        content: before?.content ?? '',
        source: 'site_edit_rollback',
        editId: edit.editId,
      })
      return { restored_snapshot_id: restored.snapshotId }
    },
  }
}
