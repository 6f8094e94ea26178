import type { PageSnapshotEvent } from '../domain/pages/events.js'
import { findPageByUrl, pageSet } from '../domain/pages/page-set.js'
import { appendAudit } from './append.js'
import { handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

export interface AddPageInput {
  readonly orgId: number
  readonly clientId: number
  readonly url: string
  readonly slug?: string | undefined
  readonly wpPostId?: number | null | undefined
  readonly title?: string | undefined
  readonly active?: boolean | undefined
}

/**
 * add_page: get-or-create by URL in the client's page set. A known URL updates the fields given and keeps
 * its id. The caller has checked that the client is visible to it (the org id comes from the client).
 */
export async function addPage(
  deps: WriteDeps,
  context: CommandContext,
  input: AddPageInput,
): Promise<{ pageId: number; position: Position | null }> {
  const pageId = await deps.ids.next('page')
  const outcome = await handleCommand(deps, {
    aggregate: pageSet,
    id: input.clientId,
    command: {
      type: 'AddPage',
      client_id: input.clientId,
      page_id: pageId,
      url: input.url,
      slug: input.slug,
      wp_post_id: input.wpPostId,
      title: input.title,
      active: input.active,
    },
    context,
    orgId: input.orgId,
  })
  const page = findPageByUrl(outcome.state, input.url)
  return { pageId: page!.id, position: outcome.position }
}

/** deactivate_pages_not_in_list: the ids of the pages it marked inactive (already inactive ones are not counted). */
export async function deactivatePagesNotInList(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; clientId: number; activeUrls: readonly string[] },
): Promise<{ deactivated: number[]; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: pageSet,
    id: input.clientId,
    command: { type: 'DeactivatePagesNotInList', client_id: input.clientId, active_urls: input.activeUrls },
    context,
    orgId: input.orgId,
  })
  const deactivated = outcome.events.flatMap((e) => (e.type === 'PagesDeactivated' ? e.data.page_ids : []))
  return { deactivated, position: outcome.position }
}

export interface SnapshotInput {
  readonly orgId: number
  readonly clientId: number
  readonly pageId: number
  readonly title: string
  readonly content: string
  readonly source: 'add_snapshot' | 'site_edit' | 'site_edit_rollback'
  readonly editId: number | null
}

/**
 * Records a page's content at this moment on the page's own stream (`page-<page_id>`). Snapshots are facts
 * with no rule between them, so the append expects any revision. The caller has checked the page.
 */
export async function recordSnapshot(
  deps: WriteDeps,
  context: CommandContext,
  input: SnapshotInput,
): Promise<{ snapshotId: number; position: Position }> {
  const snapshotId = await deps.ids.next('page_snapshot')
  const event: PageSnapshotEvent = {
    type: 'PageSnapshotRecorded',
    data: {
      snapshot_id: snapshotId,
      page_id: input.pageId,
      client_id: input.clientId,
      title: input.title,
      content: input.content,
      source: input.source,
      edit_id: input.editId,
      // Content someone posted or an edit published, not a fetch: no scan, no page state, no HTTP validators.
      scan_id: null,
      state: null,
      etag: null,
      last_modified: null,
    },
  }
  // A record of what the page held, deciding nothing: appended without reading the page's history.
  const position = await appendAudit(deps, `page-${input.pageId}`, [event], context, input.orgId)
  return { snapshotId, position }
}
