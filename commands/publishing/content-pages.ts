import {
  type ClientContentPagesState,
  clientContentPages,
  type ContentPageRecord,
  findContentPage,
} from '../../domain/publishing/content-pages/client-content-pages.js'
import type { ContentPageStatus } from '../../domain/publishing/content-pages/statuses.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/** The client's content pages, folded from its stream (consistent with the last write). */
export function loadClientContentPages(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<ClientContentPagesState> {
  return loadState(deps.store, clientContentPages, clientId)
}

/**
 * create_content_page: a page the service created on the client's WordPress (post `wpPostId`), one per post
 * of the client (content_page_exists names the other). The client must be the caller's and not deleted.
 */
export async function createContentPage(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    wpPostId: number
    jobId: number | null
    slug: string
    title: string
    status: ContentPageStatus
    verifyJson: string
  },
): Promise<{ pageId: number; position: Position | null }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const pageId = await deps.ids.next('content_page')
  const outcome = await handleCommand(deps, {
    aggregate: clientContentPages,
    id: input.clientId,
    command: {
      type: 'CreateContentPage',
      client_id: input.clientId,
      page_id: pageId,
      wp_post_id: input.wpPostId,
      job_id: input.jobId,
      slug: input.slug,
      title: input.title,
      status: input.status,
      verify_json: input.verifyJson,
    },
    context,
    orgId: client.orgId,
  })
  return { pageId, position: outcome.position }
}

/**
 * update_content_page: new title, slug, status (along the allowed transitions) or verification; a value left
 * out stays, and the same values again change nothing.
 */
export async function updateContentPage(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    clientId: number
    pageId: number
    slug?: string | undefined
    title?: string | undefined
    status?: ContentPageStatus | undefined
    verifyJson?: string | undefined
  },
): Promise<{ updated: boolean; position: Position | null }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: clientContentPages,
    id: input.clientId,
    command: {
      type: 'UpdateContentPage',
      client_id: input.clientId,
      page_id: input.pageId,
      slug: input.slug,
      title: input.title,
      status: input.status,
      verify_json: input.verifyJson,
    },
    context,
    orgId: client.orgId,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}

/** The client's content page for a WordPress post, if the service created one (a publisher's lookup). */
export async function contentPageForPost(
  deps: Pick<WriteDeps, 'store'>,
  clientId: number,
  wpPostId: number,
): Promise<ContentPageRecord | undefined> {
  return (await loadClientContentPages(deps, clientId)).pages.find((p) => p.wpPostId === wpPostId)
}

/** The client's content page by id; not_found when the client has none with it. */
export async function contentPageOfClient(deps: Pick<WriteDeps, 'store'>, clientId: number, pageId: number): Promise<ContentPageRecord> {
  const page = findContentPage(await loadClientContentPages(deps, clientId), pageId)
  if (!page) throw new NotFoundError('content page', pageId)
  return page
}
