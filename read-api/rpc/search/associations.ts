import { z } from 'zod'
import { associateKeywordPage, dissociateKeywordPage } from '../../../commands/search/associations.js'
import { MAX_PAGES_PER_KEYWORD } from '../../../domain/search/associations/keyword-pages.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { visibleKeyword } from '../../../projections/keywords/queries.js'
import { visiblePage } from '../../../projections/pages/queries.js'
import {
  associationsOfClient,
  associationsOfKeyword,
  associationsOfPage,
  keywordsWithoutPages,
  pagesWithoutKeywords,
  visibleAssociation,
} from '../../../projections/search/associations/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId, KeywordId, PageId } from '../ids.js'

const domain = 'search'

/** How long associate_keyword_page waits for the read models to show a link it did not write itself. */
const LINK_WAIT_MS = 5_000

const AssociationSchema = z
  .object({
    client_id: ClientId,
    keyword_id: KeywordId,
    keyword: z.string().describe('The keyword as added'),
    keyword_status: z.enum(['active', 'deleted']).describe('deleted: the keyword was deleted after the link was made; the link stays'),
    page_id: PageId,
    page_url: z.string().describe('The page address as added'),
    page_title: z.string().describe("The page's title"),
    page_active: z.boolean().describe('false: the page was deactivated after the link was made; the link stays'),
    primary: z.boolean().describe("Whether this is the keyword's primary page (exactly one link of each linked keyword)"),
    associated_at: z.string().describe('When the link was made (ISO 8601)'),
    updated_at: z.string().describe('When the link last changed (made, or its primary flag moved)'),
  })
  .describe('A keyword ↔ page link')

const KeywordSchema = z
  .object({
    id: KeywordId,
    client_id: ClientId,
    keyword: z.string().describe('The phrase as added'),
    source: z.string().describe('manual, generated or aeo'),
    service: z.string().describe("The client's service it is about ('' when none)"),
    location: z.string().describe("The location it is about ('' when none)"),
    status: z.enum(['active', 'deleted']).describe('Always active here'),
    created_at: z.string().describe('When the keyword was added'),
    updated_at: z.string().describe('When the keyword last changed'),
    deleted_at: z.string().nullable().describe('Always null here'),
  })
  .describe('A keyword, as get_keywords_for_client shows it')

const PageSchema = z
  .object({
    page_id: PageId,
    client_id: ClientId,
    url: z.string().describe('The page address as added'),
    slug: z.string().describe('The page slug'),
    wp_post_id: Id.nullable().describe('The WordPress post id, when known'),
    title: z.string().describe("The page's title"),
    active: z.boolean().describe('Always true here'),
    created_at: z.string().describe('When the page was added'),
    updated_at: z.string().describe('When the page last changed'),
  })
  .describe('A page, as get_pages_for_client shows it')

const exampleLink = {
  client_id: 34,
  keyword_id: 1501,
  keyword: 'drain cleaning austin',
  keyword_status: 'active' as const,
  page_id: 220,
  page_url: 'https://acmeplumbing.com/services/drain-cleaning',
  page_title: 'Drain Cleaning',
  page_active: true,
  primary: true,
  associated_at: '2026-03-02T15:04:05.000Z',
  updated_at: '2026-03-02T15:04:05.000Z',
}

export const associationsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'associate_keyword_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Link a keyword to the page that serves it (both of the same client, else 400 association_client_mismatch). One page may serve ' +
      'many keywords; a keyword may have many pages but exactly one primary: its first link is primary, primary: true moves the primary here. ' +
      'Associating again changes nothing. A deleted keyword (409 keyword_deleted) or an inactive page (409 page_inactive) cannot be linked; ' +
      `at most ${MAX_PAGES_PER_KEYWORD} pages per keyword (409 association_limit). Returns the link.`,
    example: { params: { keyword_id: 1501, page_id: 220, primary: true }, result: exampleLink },
    params: z.strictObject({
      keyword_id: KeywordId,
      page_id: PageId,
      primary: z
        .boolean()
        .optional()
        .describe("true: make this the keyword's primary page. Default: primary only when it is the keyword's first page"),
    }),
    result: AssociationSchema,
    async handler(ctx) {
      const { keyword_id, page_id, primary } = ctx.params
      const keyword = await visibleKeyword(ctx.read, ctx.orgId, keyword_id)
      const page = await visiblePage(ctx.read, ctx.orgId, page_id)
      await associateKeywordPage(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: keyword.client_id,
        keywordId: keyword.id,
        pageId: page.id,
        pageClientId: page.client_id,
        primary,
      })
      await ctx.settle()
      try {
        return await visibleAssociation(ctx.read, ctx.orgId, keyword.id, page.id)
      } catch (error) {
        // A repeat appends nothing, so settle did not wait: the link may be a concurrent request's, not shown yet.
        if (!(error instanceof NotFoundError)) throw error
        const head = await ctx.write.store.headPosition()
        if (head) await ctx.waitForReadModels(head, LINK_WAIT_MS)
        return visibleAssociation(ctx.read, ctx.orgId, keyword.id, page.id)
      }
    },
  }),
  rpc({
    name: 'dissociate_keyword_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Remove a keyword ↔ page link. Dissociating the keyword's primary page promotes its oldest remaining link (or leaves it with none). " +
      'A link that does not exist changes nothing (dissociated: false). Returns whether a link was removed and the primary page afterwards.',
    example: {
      params: { keyword_id: 1501, page_id: 220 },
      result: { keyword_id: 1501, page_id: 220, dissociated: true, primary_page_id: 231 },
    },
    params: z.strictObject({ keyword_id: KeywordId, page_id: PageId }),
    result: z.object({
      keyword_id: KeywordId,
      page_id: PageId,
      dissociated: z.boolean().describe('true: this call removed the link; false: there was none'),
      primary_page_id: Id.nullable().describe("The keyword's primary page afterwards; null when it has no page left"),
    }),
    async handler(ctx) {
      const { keyword_id, page_id } = ctx.params
      const keyword = await visibleKeyword(ctx.read, ctx.orgId, keyword_id)
      const page = await visiblePage(ctx.read, ctx.orgId, page_id)
      const outcome = await dissociateKeywordPage(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: keyword.client_id,
        keywordId: keyword.id,
        pageId: page.id,
      })
      return { keyword_id: keyword.id, page_id: page.id, dissociated: outcome.changed, primary_page_id: outcome.primaryPageId }
    },
  }),
  rpc({
    name: 'get_all_associations_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every keyword ↔ page link of a client, by keyword id (each keyword's primary page first), with the keyword's text and status " +
      "and the page's URL, title and state beside the ids.",
    example: { params: { client_id: 34 }, result: [exampleLink] },
    params: z.strictObject({ client_id: ClientId }),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    result: z.array(AssociationSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return associationsOfClient(ctx.read, client.id, ctx.page!)
    },
  }),
  rpc({
    name: 'get_associations_for_keyword',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The pages linked to a keyword: its primary page first, then the others oldest first ([] when none).',
    example: { params: { keyword_id: 1501 }, result: [exampleLink] },
    params: z.strictObject({ keyword_id: KeywordId }),
    result: z.array(AssociationSchema),
    async handler(ctx) {
      const keyword = await visibleKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      return associationsOfKeyword(ctx.read, keyword.id)
    },
  }),
  rpc({
    name: 'get_associations_for_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The keywords a page serves, by keyword id, each with whether the page is its primary one ([] when none).',
    example: { params: { page_id: 220 }, result: [exampleLink] },
    params: z.strictObject({ page_id: PageId }),
    result: z.array(AssociationSchema),
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      return associationsOfPage(ctx.read, page.id)
    },
  }),
  rpc({
    name: 'get_keywords_without_pages',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's active keywords that no active page serves (no link, or links only to deactivated pages), oldest first: the " +
      'keywords that need a page. Same shape as get_keywords_for_client.',
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId }),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    result: z.array(KeywordSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return keywordsWithoutPages(ctx.read, client.id, ctx.page!)
    },
  }),
  rpc({
    name: 'get_pages_without_keywords',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A client's active pages that serve no active keyword (no link, or links only to deleted keywords), in id order. Same shape " +
      'as get_pages_for_client.',
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId }),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    result: z.array(PageSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return pagesWithoutKeywords(ctx.read, client.id, ctx.page!)
    },
  }),
]
