import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { ContentPagesEvent } from './events.js'
import { assertContentPageTransition, type ContentPageStatus } from './statuses.js'
import { parseVerification } from './verification.js'

/**
 * A client's content pages: one stream, `content_pages-<client_id>`, so "one content page per WordPress post
 * of the client" is decided against them all with one append (two creates racing for a post cannot both win).
 */
export const contentPagesStream = (clientId: number) => `content_pages-${clientId}`

export interface ContentPageRecord {
  readonly id: number
  readonly wpPostId: number
  readonly jobId: number | null
  readonly slug: string
  readonly title: string
  readonly status: ContentPageStatus
  readonly verifyJson: string
}

export interface ClientContentPagesState {
  readonly clientId: number
  readonly pages: readonly ContentPageRecord[]
}

export type ContentPagesCommand =
  | {
      type: 'CreateContentPage'
      client_id: number
      page_id: number
      wp_post_id: number
      job_id: number | null
      slug: string
      title: string
      status: ContentPageStatus
      verify_json: string
    }
  | {
      type: 'UpdateContentPage'
      client_id: number
      page_id: number
      slug?: string | undefined
      title?: string | undefined
      status?: ContentPageStatus | undefined
      verify_json?: string | undefined
    }

const initialState = (): ClientContentPagesState => ({ clientId: 0, pages: [] })

export function findContentPage(state: ClientContentPagesState, pageId: number): ContentPageRecord | undefined {
  return state.pages.find((p) => p.id === pageId)
}

function evolve(state: ClientContentPagesState, event: ContentPagesEvent): ClientContentPagesState {
  switch (event.type) {
    case 'ContentPageCreated': {
      const d = event.data
      const page: ContentPageRecord = {
        id: d.page_id,
        wpPostId: d.wp_post_id,
        jobId: d.job_id,
        slug: d.slug,
        title: d.title,
        status: d.status,
        verifyJson: d.verify_json,
      }
      return { clientId: d.client_id, pages: [...state.pages, page] }
    }
    case 'ContentPageUpdated': {
      const d = event.data
      return {
        ...state,
        pages: state.pages.map((p) =>
          p.id === d.page_id ? { ...p, slug: d.slug, title: d.title, status: d.status, verifyJson: d.verify_json } : p,
        ),
      }
    }
    default:
      return assertNever(event)
  }
}

function decide(command: ContentPagesCommand, state: ClientContentPagesState): ContentPagesEvent[] {
  switch (command.type) {
    case 'CreateContentPage': {
      // The id was allocated for this request: finding it means a retried request already created it.
      if (findContentPage(state, command.page_id)) return []
      const holder = state.pages.find((p) => p.wpPostId === command.wp_post_id)
      if (holder) {
        throw new DomainError(
          'content_page_exists',
          'The client already has a content page for this WordPress post',
          `WordPress post ${command.wp_post_id} is content page ${holder.id}`,
        )
      }
      parseVerification(command.verify_json)
      const { type: _type, ...data } = command
      return [{ type: 'ContentPageCreated', data: { ...data, slug: data.slug.trim(), title: data.title.trim() } }]
    }
    case 'UpdateContentPage': {
      const page = findContentPage(state, command.page_id)
      if (!page) throw new NotFoundError('content page', command.page_id)
      const next = {
        slug: command.slug === undefined ? page.slug : command.slug.trim(),
        title: command.title === undefined ? page.title : command.title.trim(),
        status: command.status ?? page.status,
        verify_json: command.verify_json ?? page.verifyJson,
      }
      assertContentPageTransition(page.id, page.status, next.status)
      parseVerification(next.verify_json)
      const unchanged =
        next.slug === page.slug && next.title === page.title && next.status === page.status && next.verify_json === page.verifyJson
      if (unchanged) return [] // the same values again (a retried request) change nothing
      return [{ type: 'ContentPageUpdated', data: { client_id: command.client_id, page_id: page.id, ...next } }]
    }
    default:
      return assertNever(command)
  }
}

export const clientContentPages: Aggregate<ClientContentPagesState, ContentPagesCommand, ContentPagesEvent> = {
  streamOf: contentPagesStream,
  initialState,
  evolve,
  decide,
  entity: 'content page',
}
