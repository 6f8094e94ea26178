import { z } from 'zod'
import type { SitePublisher } from '../../commands/site-edits-publisher.js'
import { applySiteEdit, rollbackSiteEdit, stageSiteEdit } from '../../commands/site-edits.js'
import { pageUrlKey } from '../../domain/pages/url.js'
import { REDIRECT_OPERATION, redirectPayloadProblem } from '../../domain/publishing/redirects/redirect-payload.js'
import { Id } from '../../domain/shared/values.js'
import { SiteEditOperation, SiteEditPayload } from '../../domain/site-edits/events.js'
import { SITE_EDIT_STATUSES, type SiteEditStatus } from '../../domain/site-edits/site-edit.js'
import { visibleClient } from '../../projections/clients/queries.js'
import { pagesForClient } from '../../projections/pages/queries.js'
import {
  allSiteEdits,
  countApplyAttemptsSince,
  countPendingSiteEdits,
  siteEditsForClient,
  siteEditView,
  visibleSiteEdit,
} from '../../projections/site-edits/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import { ApiError } from '../errors.js'
import { rpc, type RpcContext } from '../registry.js'
import { writableClient } from './pages.js'
import { ClientId, EditId } from './ids.js'

const domain = 'site-edits'

const STATES =
  'States: proposed (staged by prompted_edit or create_site_edit) → applied (apply_site_edit published it; approved_by recorded) → rolled_back (rollback_site_edit restored the content from before; final). A failed publish leaves the edit proposed and counts as an attempt.'

const Status = z.enum(SITE_EDIT_STATUSES as [SiteEditStatus, ...SiteEditStatus[]]).describe('proposed, applied or rolled_back')

const SiteEditView = z.object({
  edit_id: EditId,
  client_id: ClientId,
  operation: z.string().describe('What kind of change (prompted_edit stages elementor_rewrite)'),
  page_url: z.string().describe('The page the edit is for (may be empty)'),
  page_id: Id.nullable().describe("The page the edit is for, when it is one of the client's pages"),
  payload: z
    .string()
    .describe(
      'The change, as text; elementor_rewrite payloads are JSON: instruction, page_id, page_url, wp_post_id, before_snapshot_id, before_excerpt, proposed_content, summary, writer',
    ),
  status: Status,
  approved_by: z.string().describe('Who approved the applied edit (apply_site_edit approved_by, or the calling key); empty until applied'),
  job_id: Id.nullable().describe('The prompted_edit job that staged it; null for create_site_edit'),
  staged_by: z.string().describe('Who staged it, as <actor kind>:<actor id>'),
  applied_by: z.string().nullable().describe('Who applied it, as <actor kind>:<actor id>'),
  applied_at: z.string().nullable(),
  rolled_back_by: z.string().nullable(),
  rolled_back_at: z.string().nullable(),
  before_snapshot_id: Id.nullable().describe("The page's snapshot before the edit was applied"),
  after_snapshot_id: Id.nullable().describe('The snapshot the apply published'),
  restored_snapshot_id: Id.nullable().describe('The snapshot the rollback recorded (equal in content to before_snapshot_id)'),
  apply_attempts: z.number().int().describe('Apply attempts, failed ones included'),
  last_error: z.string().nullable().describe('Why the last failed apply attempt failed'),
  created_at: z.string(),
  updated_at: z.string(),
})

/** The one place a missing publisher is reported. */
function publisherOf(ctx: RpcContext<unknown>): SitePublisher {
  const publisher = ctx.settings.sitePublisher
  if (!publisher) throw new ApiError('service_unavailable', 'no site publisher is configured in this process')
  return publisher
}

/** The page of the client with this URL, if the client has one (create_site_edit links the edit to it). */
async function pageIdForUrl(read: ReadDb, clientId: number, url: string): Promise<number | null> {
  if (url === '') return null
  const key = pageUrlKey(url)
  return (await pagesForClient(read, clientId, false)).find((p) => pageUrlKey(p.url) === key)?.id ?? null
}

/** A failed apply still recorded its attempt: the caller who reads next sees it (read-your-writes on errors too). */
async function settledOnError<T>(ctx: RpcContext<unknown>, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    await ctx.settle()
    throw error
  }
}

/**
 * Apply and rollback of one edit run one at a time across every process: the publisher acts before the event
 * that records it is appended, so two concurrent applies would both publish (two snapshots, or two writes to a
 * live site) and only then would one be refused. Under the lock the second one loads the recorded outcome and
 * answers 409 without publishing.
 */
function oneAtATime<T>(ctx: RpcContext<{ edit_id: number }>, work: () => Promise<T>): Promise<T> {
  return ctx.locks.withLock(`site_edit:${ctx.params.edit_id}`, work)
}

async function viewAfterWrite(ctx: RpcContext<{ edit_id: number }>) {
  await ctx.settle()
  return siteEditView(await visibleSiteEdit(ctx.read, ctx.orgId, ctx.params.edit_id))
}

export const siteEditRpcs = [
  rpc({
    name: 'create_site_edit',
    domain,
    access: 'write',
    orgScoped: true,
    summary: `Stage a proposed site edit for a client. Returns the edit id. ${STATES}`,
    example: {
      params: {
        client_id: 34,
        operation: 'elementor_rewrite',
        payload: '{"page_id":210,"proposed_content":"<h1>Drain Cleaning in Austin, TX</h1>"}',
        page_url: 'https://acmeplumbing.com/drain-cleaning/',
      },
      result: 61,
    },
    params: z.strictObject({
      client_id: ClientId,
      operation: SiteEditOperation.describe('What kind of change, e.g. elementor_rewrite'),
      payload: SiteEditPayload.describe(
        "The change as text. The built-in publisher publishes JSON carrying proposed_content (and page_id, or the edit's page_url); a client with a WordPress connection also needs wordpress {post_type pages|posts, post_id, base_modified_gmt, field content|elementor_data, proposed} (prompted_edit writes it), or a meta_rewrite payload. Operation redirect: JSON {from_url, to_url, status_code 301|302|307|308, action_item_id?, to_page_id?}, from_url on the client's site, checked when staged",
      ),
      page_url: z.string().trim().max(2000).default('').describe('The page the edit is for (default empty)'),
    }),
    result: Id.describe('The edit id'),
    async handler(ctx) {
      const p = ctx.params
      const client = await writableClient(ctx.read, ctx.orgId, p.client_id)
      const redirectProblem = p.operation === REDIRECT_OPERATION ? redirectPayloadProblem(p.payload, client.website_url) : null
      if (redirectProblem !== null) throw new ApiError('validation_failed', `${redirectProblem} (domain/publishing/redirects/README.md)`)
      const { editId } = await stageSiteEdit(ctx.write, ctx.command, {
        orgId: client.org_id,
        clientId: client.id,
        operation: p.operation,
        pageUrl: p.page_url,
        pageId: await pageIdForUrl(ctx.read, client.id, p.page_url),
        payload: p.payload,
        jobId: null,
      })
      return editId
    },
  }),
  rpc({
    name: 'get_site_edit',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `One site edit with its status and who staged, approved, applied and rolled it back. ${STATES}`,
    example: { params: { edit_id: 61 } },
    params: z.strictObject({ edit_id: EditId }),
    result: SiteEditView,
    handler: async (ctx) => siteEditView(await visibleSiteEdit(ctx.read, ctx.orgId, ctx.params.edit_id)),
  }),
  rpc({
    name: 'get_site_edits',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "A client's site edits, newest first, optionally of one status (proposed, applied, rolled_back).",
    example: { params: { client_id: 34, status: 'proposed' } },
    params: z.strictObject({ client_id: ClientId, status: Status.optional() }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(SiteEditView),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const rows = await siteEditsForClient(ctx.read, ctx.params.client_id, ctx.params.status, ctx.page ?? { limit: 100, offset: 0 })
      return rows.map(siteEditView)
    },
  }),
  rpc({
    name: 'list_all_site_edits',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Every site edit of the organization (a platform key without org_id: of every organization), newest first, optionally of one status.',
    example: { params: { status: 'applied' } },
    params: z.strictObject({ status: Status.optional() }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(SiteEditView),
    async handler(ctx) {
      const rows = await allSiteEdits(ctx.read, ctx.orgId, ctx.params.status, ctx.page ?? { limit: 100, offset: 0 })
      return rows.map(siteEditView)
    },
  }),
  rpc({
    name: 'count_pending_site_edits',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's proposed site edits: staged and not yet applied.",
    example: { params: { client_id: 34 } },
    params: z.strictObject({ client_id: ClientId }),
    result: z.number().int(),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return countPendingSiteEdits(ctx.read, ctx.params.client_id)
    },
  }),
  rpc({
    name: 'count_site_edit_attempts_last_hour',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'apply_site_edit attempts (published or failed) in the last 60 minutes, in the organization (a platform key without org_id: platform-wide). Rollbacks are not counted.',
    example: { params: {} },
    params: z.strictObject({}),
    result: z.number().int(),
    handler: async (ctx) => countApplyAttemptsSince(ctx.read, ctx.orgId, new Date(ctx.write.clock().getTime() - 60 * 60 * 1000)),
  }),
  rpc({
    name: 'apply_site_edit',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Approve and publish a proposed site edit; approved_by (default: the calling key) and the snapshots before and after are recorded. A client with a WordPress connection gets it on its site (content, an Elementor page's widget text, the SEO plugin's fields, or a Redirection redirect), checked first against the post's version the edit was written from: a page changed on the site since answers 409 site_edit_conflict and nothing is written; a site failure answers 502 site_publish_failed and is recorded as a push failure. Without a connection the built-in publisher records the page's new content as a snapshot. Only a proposed edit can be applied (409 otherwise). Returns the edit.",
    example: { params: { edit_id: 61, approved_by: 'dana@northwind.example' } },
    params: z.strictObject({
      edit_id: EditId,
      approved_by: z.string().trim().max(200).default('').describe('Who approved the edit (default empty: the calling key is recorded)'),
    }),
    result: SiteEditView,
    async handler(ctx) {
      const publisher = publisherOf(ctx)
      await settledOnError(ctx, () =>
        oneAtATime(ctx, () =>
          applySiteEdit(ctx.write, ctx.command, publisher, {
            editId: ctx.params.edit_id,
            visibleTo: ctx.orgId,
            approvedBy: ctx.params.approved_by,
          }),
        ),
      )
      return viewAfterWrite(ctx)
    },
  }),
  rpc({
    name: 'rollback_site_edit',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Undo an applied site edit through the publisher that applied it: on a WordPress site exactly the values the apply replaced are written back (409 site_edit_conflict, nothing written, when the post changed on the site since; a redirect is deleted); the built-in publisher records a new snapshot equal to the one from before. Who and when are recorded. An edit never applied answers 409 site_edit_not_applied. Returns the edit.',
    example: { params: { edit_id: 61 } },
    params: z.strictObject({ edit_id: EditId }),
    result: SiteEditView,
    async handler(ctx) {
      await oneAtATime(ctx, () =>
        rollbackSiteEdit(ctx.write, ctx.command, publisherOf(ctx), { editId: ctx.params.edit_id, visibleTo: ctx.orgId }),
      )
      return viewAfterWrite(ctx)
    },
  }),
]
