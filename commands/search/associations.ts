import { findById } from '../../domain/keywords/keyword-set.js'
import { pageSet } from '../../domain/pages/page-set.js'
import {
  keywordPages,
  primaryOf,
  type KeywordFacts,
  type KeywordPagesCommand,
  type KeywordPagesState,
  type PageFacts,
} from '../../domain/search/associations/keyword-pages.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import { loadKeywordSet } from '../keywords.js'

type Caller = { readonly callerOrgId: number | null }

export interface AssociationOutcome {
  /** Whether this call appended anything (false: the link already was as asked). */
  readonly changed: boolean
  /** The keyword's primary page afterwards (null: no link left). */
  readonly primaryPageId: number | null
  readonly position: Position | null
}

/** The client's link set, folded from `keyword_pages-<client_id>`. */
export async function loadKeywordPages(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<KeywordPagesState> {
  return loadState(deps.store, keywordPages, clientId)
}

/** Every association event carries the client's organization, so `ops replay --org` and the export see the links. */
async function run(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; keywordId: number },
  command: KeywordPagesCommand,
): Promise<AssociationOutcome> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, { aggregate: keywordPages, id: owner.id, command, context, orgId: owner.orgId })
  return {
    changed: outcome.events.length > 0,
    primaryPageId: primaryOf(outcome.state, input.keywordId),
    position: outcome.position,
  }
}

/**
 * associate_keyword_page: links the keyword (of client `clientId`) to the page (of client `pageClientId`, as
 * the caller found it). The keyword's and the page's current facts come from their own sets in the log, so a
 * keyword deleted or a page deactivated a moment ago is refused even if the read models do not show it yet.
 */
export async function associateKeywordPage(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; keywordId: number; pageId: number; pageClientId: number; primary?: boolean | undefined },
): Promise<AssociationOutcome> {
  const keyword = findById(await loadKeywordSet(deps, input.clientId), input.keywordId)
  const page = (await loadState(deps.store, pageSet, input.pageClientId)).pages.find((p) => p.id === input.pageId)
  const keywordFacts: KeywordFacts | undefined = keyword && { id: keyword.id, clientId: input.clientId, deleted: keyword.deleted }
  const pageFacts: PageFacts | undefined = page && { id: page.id, clientId: input.pageClientId, active: page.active }
  return run(deps, context, input, {
    type: 'Associate',
    client_id: input.clientId,
    keyword_id: input.keywordId,
    page_id: input.pageId,
    keyword: keywordFacts,
    page: pageFacts,
    primary: input.primary,
  })
}

/** dissociate_keyword_page: removes the link (nothing when there is none); a primary one promotes the oldest remaining link. */
export async function dissociateKeywordPage(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; keywordId: number; pageId: number },
): Promise<AssociationOutcome> {
  return run(deps, context, input, { type: 'Dissociate', client_id: input.clientId, keyword_id: input.keywordId, page_id: input.pageId })
}
