import { z } from 'zod'
import { createContentPage, updateContentPage } from '../../../commands/publishing/content-pages.js'
import { CONTENT_PAGE_SLUG_MAX_LENGTH, CONTENT_PAGE_TITLE_MAX_LENGTH } from '../../../domain/publishing/content-pages/events.js'
import { ContentPageStatus } from '../../../domain/publishing/content-pages/statuses.js'
import { VERIFY_JSON_MAX_BYTES } from '../../../domain/publishing/content-pages/verification.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { findJob } from '../../../projections/jobs/queries.js'
import { contentPagesForClient, contentPageView, visibleContentPage } from '../../../projections/publishing/content-pages/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'publishing'

const ContentPageId = Id.describe('The content page (an integer id, as create_content_page or list_content_pages answered)')
const WpPostId = Id.describe("The page's post id on the client's WordPress")
const Status = ContentPageStatus.describe(
  'draft, pending_review (waiting for a person), published (live), verified (live and its check passed), failed (its check did not pass) or trashed',
)
const Slug = z
  .string()
  .max(CONTENT_PAGE_SLUG_MAX_LENGTH)
  .describe(`The page's slug on the site (at most ${CONTENT_PAGE_SLUG_MAX_LENGTH} characters)`)
const Title = z
  .string()
  .max(CONTENT_PAGE_TITLE_MAX_LENGTH)
  .describe(`The page's title (at most ${CONTENT_PAGE_TITLE_MAX_LENGTH} characters)`)
const VerifyJson = z
  .string()
  .describe(
    `The verification as JSON text (at most ${VERIFY_JSON_MAX_BYTES} bytes): an object, e.g. {"url": "…", "checked_at": "…", "checks": [{"name": "http_200", "passed": true, "detail": "…"}]}; '' for none`,
  )

const CheckSchema = z
  .object({
    name: z.string().describe('What was checked (e.g. http_200, title_matches, indexable)'),
    passed: z.boolean().describe('Whether it passed'),
    detail: z.string().optional().describe('What was seen, when it says more than passed'),
  })
  .passthrough()
  .describe('One check of the verification')

const ContentPageSchema = z
  .object({
    id: ContentPageId,
    client_id: ClientId,
    wp_post_id: WpPostId,
    job_id: Id.nullable().describe('The job that created it; null when a person or an agent did'),
    slug: z.string().describe("The page's slug on the site; '' when not known"),
    title: z.string().describe("The page's title; '' when not known"),
    status: Status,
    verify_json: z.string().describe("The verification as given, JSON text; '' when none"),
    verification: z
      .object({
        url: z.string().optional().describe('The address that was checked'),
        checked_at: z.string().optional().describe('When it was checked (ISO 8601)'),
        checks: z.array(CheckSchema).optional().describe('The checks, each passed or not'),
      })
      .passthrough()
      .nullable()
      .describe('verify_json parsed; null when there is none'),
    created_at: z.string().describe('When it was recorded (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
  })
  .describe('A page the service created on the client’s WordPress')

const exampleVerify =
  '{"url":"https://www.acmeplumbing.com/drain-cleaning-austin/","checked_at":"2026-11-20T10:00:00Z","checks":[{"name":"http_200","passed":true}]}'
const examplePage = {
  id: 12,
  client_id: 34,
  wp_post_id: 481,
  job_id: null,
  slug: 'drain-cleaning-austin',
  title: 'Drain Cleaning in Austin, TX',
  status: 'verified' as const,
  verify_json: exampleVerify,
  verification: JSON.parse(exampleVerify),
  created_at: '2026-11-20T09:40:00.000Z',
  updated_at: '2026-11-20T10:00:02.000Z',
}

async function settledPage(ctx: { read: ReadDb; orgId: number | null; settle: () => Promise<void> }, pageId: number) {
  await ctx.settle()
  return contentPageView(await visibleContentPage(ctx.read, ctx.orgId, pageId))
}

export const contentPagesRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'create_content_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Record a page the service created on the client's WordPress (post wp_post_id): one per post of the client (409 content_page_exists names the other). " +
      'verify_json, when given, must be a JSON object (400 content_page_verify_json_invalid otherwise). Returns the new content page id.',
    example: {
      params: { client_id: 34, wp_post_id: 481, slug: 'drain-cleaning-austin', title: 'Drain Cleaning in Austin, TX' },
      result: 12,
    },
    params: z.strictObject({
      client_id: ClientId,
      wp_post_id: WpPostId,
      job_id: Id.nullable().optional().describe('The job that created it (default null: a person or an agent)'),
      slug: Slug.optional().describe("The page's slug on the site (default '')"),
      status: Status.optional().describe('Its status (default draft)'),
      title: Title.optional().describe("The page's title (default '')"),
      verify_json: VerifyJson.optional().describe("The verification as JSON text (default '': none); see update_content_page"),
    }),
    result: z.number().int().describe('The new content page id'),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const jobId = p.job_id ?? null
      if (jobId !== null && !(await findJob(ctx.read, client.org_id, jobId))) throw new NotFoundError('job', jobId)
      const created = await createContentPage(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: p.client_id,
        wpPostId: p.wp_post_id,
        jobId,
        slug: p.slug ?? '',
        title: p.title ?? '',
        status: p.status ?? 'draft',
        verifyJson: p.verify_json ?? '',
      })
      return created.pageId
    },
  }),
  rpc({
    name: 'update_content_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Change a content page's title, slug, status or verification; what is left out stays. Statuses move draft → pending_review → published → verified / failed " +
      '(a check may be repeated; a republished page is published again; trashed only back to draft): another move answers 409 content_page_status_invalid. ' +
      'The same values again change nothing. Returns the content page.',
    example: { params: { page_id: 12, status: 'verified', verify_json: exampleVerify }, result: examplePage },
    params: z.strictObject({
      page_id: ContentPageId,
      title: Title.optional().describe("The page's new title (default: unchanged)"),
      slug: Slug.optional().describe("The page's new slug (default: unchanged)"),
      status: Status.optional().describe('Its new status (default: unchanged)'),
      verify_json: VerifyJson.optional(),
    }),
    result: ContentPageSchema,
    async handler(ctx) {
      const p = ctx.params
      const page = await visibleContentPage(ctx.read, ctx.orgId, p.page_id)
      await updateContentPage(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: page.client_id,
        pageId: page.id,
        title: p.title,
        slug: p.slug,
        status: p.status,
        verifyJson: p.verify_json,
      })
      return settledPage(ctx, page.id)
    },
  }),
  rpc({
    name: 'get_content_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'A content page: a page the service created on a client’s WordPress, with its status and verification.',
    example: { params: { page_id: 12 }, result: examplePage },
    params: z.strictObject({ page_id: ContentPageId }),
    result: ContentPageSchema,
    handler: async (ctx) => contentPageView(await visibleContentPage(ctx.read, ctx.orgId, ctx.params.page_id)),
  }),
  rpc({
    name: 'list_content_pages',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's content pages, oldest first, optionally only those of one status.",
    example: { params: { client_id: 34, status: 'verified' }, result: [examplePage] },
    params: z.strictObject({ client_id: ClientId, status: Status.optional().describe('Only pages of this status (default: all)') }),
    result: z.array(ContentPageSchema),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return (await contentPagesForClient(ctx.read, ctx.params.client_id, ctx.params.status)).map(contentPageView)
    },
  }),
]
