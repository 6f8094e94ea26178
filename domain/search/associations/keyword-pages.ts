import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { AssociationEvent } from './events.js'

/**
 * A client's keyword ↔ page links: stream `keyword_pages-<client_id>`. One page may serve many keywords and a
 * keyword may have many pages, but a linked keyword has exactly one primary page: its first link is primary,
 * associating with primary moves it, dissociating the primary promotes the oldest remaining link (or leaves
 * none when no link is left). The rule spans every link of a keyword, and links only join a keyword and a page
 * of the same client, so the client's whole link set is the consistency boundary.
 */
export const keywordPagesStream = (clientId: number) => `keyword_pages-${clientId}`

/** The most pages one keyword may be linked to: bounds this stream's state and each rank match. */
export const MAX_PAGES_PER_KEYWORD = 50

export interface Link {
  readonly pageId: number
  readonly primary: boolean
}

export interface KeywordPagesState {
  readonly clientId: number
  /** Per keyword, its links oldest first (the order that decides which link a dissociation promotes). */
  readonly links: ReadonlyMap<number, readonly Link[]>
}

/** What the keyword's set says about it (commands read it from `keywords-<client_id>`). */
export interface KeywordFacts {
  readonly id: number
  readonly clientId: number
  readonly deleted: boolean
}

/** What the page's set says about it (commands read it from `pages-<client_id>`). */
export interface PageFacts {
  readonly id: number
  readonly clientId: number
  readonly active: boolean
}

export type KeywordPagesCommand =
  /**
   * `keyword`/`page`: the facts from their sets, undefined when the set has no such record. `primary`:
   * true moves the keyword's primary to this page; false or absent leaves the primary where it is (a
   * keyword's first link is primary whatever it says, since a linked keyword always has one).
   */
  | {
      type: 'Associate'
      client_id: number
      keyword_id: number
      page_id: number
      keyword: KeywordFacts | undefined
      page: PageFacts | undefined
      primary?: boolean | undefined
    }
  | { type: 'Dissociate'; client_id: number; keyword_id: number; page_id: number }

const initialState = (): KeywordPagesState => ({ clientId: 0, links: new Map() })

/** The keyword's links, oldest first ([] when it has none). */
export function linksOf(state: KeywordPagesState, keywordId: number): readonly Link[] {
  return state.links.get(keywordId) ?? []
}

/** The keyword's primary page id, or null when it has no link. */
export function primaryOf(state: KeywordPagesState, keywordId: number): number | null {
  return linksOf(state, keywordId).find((l) => l.primary)?.pageId ?? null
}

function withLinks(state: KeywordPagesState, clientId: number, keywordId: number, links: readonly Link[]): KeywordPagesState {
  const next = new Map(state.links)
  if (links.length === 0) next.delete(keywordId)
  else next.set(keywordId, links)
  return { clientId, links: next }
}

const primaryAt = (links: readonly Link[], pageId: number): Link[] => links.map((l) => ({ pageId: l.pageId, primary: l.pageId === pageId }))

function evolve(state: KeywordPagesState, event: AssociationEvent): KeywordPagesState {
  const d = event.data
  const links = linksOf(state, d.keyword_id)
  switch (event.type) {
    case 'KeywordPageAssociated': {
      const added = [...links, { pageId: d.page_id, primary: false }]
      return withLinks(state, d.client_id, d.keyword_id, event.data.primary ? primaryAt(added, d.page_id) : added)
    }
    case 'KeywordPrimaryPageSet':
      return withLinks(state, d.client_id, d.keyword_id, primaryAt(links, d.page_id))
    case 'KeywordPageDissociated':
      return withLinks(
        state,
        d.client_id,
        d.keyword_id,
        links.filter((l) => l.pageId !== d.page_id),
      )
    default:
      return assertNever(event)
  }
}

/** Refuses a link the rules forbid: a missing record, two clients, a deleted keyword or an inactive page. */
function checkLinkable(command: Extract<KeywordPagesCommand, { type: 'Associate' }>): void {
  const { keyword, page } = command
  if (!keyword) throw new NotFoundError('keyword', command.keyword_id)
  if (!page) throw new NotFoundError('page', command.page_id)
  if (keyword.clientId !== page.clientId || keyword.clientId !== command.client_id) {
    throw new DomainError(
      'association_client_mismatch',
      'The keyword and the page belong to different clients',
      `keyword ${keyword.id} is client ${keyword.clientId}'s, page ${page.id} is client ${page.clientId}'s`,
    )
  }
  if (keyword.deleted) throw new DomainError('keyword_deleted', 'The keyword is deleted', `keyword ${keyword.id}`)
  if (!page.active) throw new DomainError('page_inactive', 'The page is inactive', `page ${page.id}`)
}

function associate(command: Extract<KeywordPagesCommand, { type: 'Associate' }>, state: KeywordPagesState): AssociationEvent[] {
  const { client_id, keyword_id, page_id } = command
  const links = linksOf(state, keyword_id)
  const existing = links.find((l) => l.pageId === page_id)
  // A repeat changes nothing and is answered as a success, even if the keyword or page changed since: a
  // retried request must not fail where the first one succeeded.
  if (existing && (existing.primary || command.primary !== true)) return []
  checkLinkable(command)
  if (existing) return [{ type: 'KeywordPrimaryPageSet', data: { client_id, keyword_id, page_id } }]
  if (links.length >= MAX_PAGES_PER_KEYWORD) {
    throw new DomainError(
      'association_limit',
      'The keyword is linked to the most pages allowed',
      `keyword ${keyword_id} has ${links.length} pages; the cap is ${MAX_PAGES_PER_KEYWORD}`,
    )
  }
  const primary = links.length === 0 || command.primary === true
  return [{ type: 'KeywordPageAssociated', data: { client_id, keyword_id, page_id, primary } }]
}

function dissociate(command: Extract<KeywordPagesCommand, { type: 'Dissociate' }>, state: KeywordPagesState): AssociationEvent[] {
  const { client_id, keyword_id, page_id } = command
  const links = linksOf(state, keyword_id)
  const link = links.find((l) => l.pageId === page_id)
  // Not linked (never, or already dissociated): nothing to do, as a retried request expects.
  if (!link) return []
  const events: AssociationEvent[] = [{ type: 'KeywordPageDissociated', data: { client_id, keyword_id, page_id } }]
  const oldest = links.find((l) => l.pageId !== page_id)
  if (link.primary && oldest) events.push({ type: 'KeywordPrimaryPageSet', data: { client_id, keyword_id, page_id: oldest.pageId } })
  return events
}

function decide(command: KeywordPagesCommand, state: KeywordPagesState): AssociationEvent[] {
  switch (command.type) {
    case 'Associate':
      return associate(command, state)
    case 'Dissociate':
      return dissociate(command, state)
    default:
      return assertNever(command)
  }
}

export const keywordPages: Aggregate<KeywordPagesState, KeywordPagesCommand, AssociationEvent> = {
  streamOf: keywordPagesStream,
  initialState,
  evolve,
  decide,
}
