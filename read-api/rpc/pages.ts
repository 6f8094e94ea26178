import { z } from 'zod'
import { addPage, deactivatePagesNotInList, recordSnapshot } from '../../commands/pages.js'
import { PageState as PageStateSchema } from '../../domain/monitoring/page-state.js'
import { PageContent, PageSlug, PageTitle, PageUrl } from '../../domain/pages/events.js'
import { DomainError } from '../../domain/shared/errors.js'
import { Id } from '../../domain/shared/values.js'
import { visibleClient, type ClientRow } from '../../projections/clients/queries.js'
import type { ReadDb } from '../../projections/tables.js'
import { latestSnapshot, pagesForClient, pageView, snapshotsForPage, snapshotView, visiblePage } from '../../projections/pages/queries.js'
import { rpc } from '../registry.js'
import { ClientId, PageId } from './ids.js'

/** The client a page or site-edit write is for: visible to the caller and not deleted (a deleted client takes no writes). */
export async function writableClient(read: ReadDb, orgId: number | null, clientId: number): Promise<ClientRow> {
  const client = await visibleClient(read, orgId, clientId)
  if (client.status === 'deleted') throw new DomainError('client_deleted', 'The client is deleted', `client ${clientId}`)
  return client
}

const PageView = z.object({
  page_id: PageId,
  client_id: ClientId,
  url: z.string().describe('The page address as added'),
  slug: z.string().describe('The page slug (by default the last path segment of the URL)'),
  wp_post_id: Id.nullable().describe('The WordPress post id, when known'),
  title: z.string(),
  active: z.boolean().describe('Inactive pages are kept but are not default targets of prompted_edit'),
  created_at: z.string(),
  updated_at: z.string(),
})

/** The page state as snapshots show it: the shared schema, with the two lists it leaves undescribed described. */
const SnapshotPageState = PageStateSchema.extend({
  images: PageStateSchema.shape.images.describe('The page’s <img> elements: absolute src and alt text'),
  hreflang: PageStateSchema.shape.hreflang.describe('<link rel="alternate" hreflang> alternates'),
})

export const SnapshotView = z.object({
  snapshot_id: Id,
  page_id: PageId,
  client_id: ClientId,
  title: z.string(),
  content: z.string().describe("The page's content at the time"),
  source: z
    .enum(['add_snapshot', 'site_edit', 'site_edit_rollback', 'crawl', 'render'])
    .describe(
      'add_snapshot, the site edit applied (site_edit) or rolled back (site_edit_rollback), or the site monitor: a crawl (crawl) or a Chromium render (render)',
    ),
  edit_id: Id.nullable().describe('The site edit that produced this content, if any'),
  scan_id: Id.nullable().describe('crawl and render: the scan that saw the page (get_last_scan_session); null otherwise'),
  state: SnapshotPageState.nullable().describe(
    "crawl and render: what the monitor saw (status, redirects, title, meta, headings, links, main text …); null otherwise. A crawled snapshot's content is this main text",
  ),
  etag: z.string().nullable().describe('crawl: the response’s ETag header, sent as If-None-Match by the next scan; null when absent'),
  last_modified: z.string().nullable().describe('crawl: the response’s Last-Modified header, sent as If-Modified-Since; null when absent'),
  created_at: z.string().describe('When the content was recorded'),
})

const PageInput = z
  .strictObject({
    client_id: ClientId,
    url: PageUrl.describe('The page URL (or site path); pages are matched by URL ignoring scheme/host case and a trailing slash'),
    slug: PageSlug.optional().describe('Default: the last path segment of the URL'),
    wp_post_id: Id.nullable().optional().describe('The WordPress post id; unique per client'),
    title: PageTitle.optional().describe('The page title, at most 500 characters (default empty for a new page)'),
    active: z.boolean().optional().describe('Default true for a new page'),
  })
  .describe('The page to add')

const SnapshotInput = z
  .strictObject({
    page_id: PageId,
    content: PageContent.describe("The page's content (HTML or text), at most 500,000 characters"),
    title: PageTitle.optional().describe("Default: the page's title"),
  })
  .describe('The snapshot to record')

export const pageRpcs = [
  rpc({
    name: 'add_page',
    domain: 'clients',
    access: 'write',
    orgScoped: true,
    summary:
      "Add a page to a client's site (get-or-create by URL): a URL the client already has keeps its id and takes the slug, wp_post_id, title and active given. Returns the page id.",
    example: {
      params: {
        page: { client_id: 34, url: 'https://acmeplumbing.com/drain-cleaning/', title: 'Drain Cleaning in Austin', wp_post_id: 412 },
      },
      result: 210,
    },
    params: z.strictObject({ page: PageInput }),
    result: Id.describe('The page id'),
    async handler(ctx) {
      const p = ctx.params.page
      const client = await writableClient(ctx.read, ctx.orgId, p.client_id)
      const { pageId } = await addPage(ctx.write, ctx.command, {
        orgId: client.org_id,
        clientId: client.id,
        url: p.url,
        slug: p.slug,
        wpPostId: p.wp_post_id,
        title: p.title,
        active: p.active,
      })
      return pageId
    },
  }),
  rpc({
    name: 'get_pages_for_client',
    domain: 'clients',
    access: 'read',
    orgScoped: true,
    summary: "A client's pages in id order; only active ones with active_only.",
    example: { params: { client_id: 34, active_only: true } },
    params: z.strictObject({ client_id: ClientId, active_only: z.boolean().default(false).describe('Only active pages (default false)') }),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    result: z.array(PageView),
    async handler(ctx) {
      await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const rows = await pagesForClient(ctx.read, ctx.params.client_id, ctx.params.active_only)
      const page = ctx.page ?? { limit: 1000, offset: 0 }
      return rows.slice(page.offset, page.offset + page.limit).map(pageView)
    },
  }),
  rpc({
    name: 'deactivate_pages_not_in_list',
    domain: 'clients',
    access: 'write',
    orgScoped: true,
    summary:
      'Mark every active page of the client whose URL is not in active_urls inactive (URLs compared as add_page compares them). Returns how many pages it deactivated and their ids; pages are never deleted.',
    example: { params: { client_id: 34, active_urls: ['https://acmeplumbing.com/', 'https://acmeplumbing.com/drain-cleaning/'] } },
    params: z.strictObject({ client_id: ClientId, active_urls: z.array(PageUrl).max(10_000).describe('The URLs that stay active') }),
    result: z.object({ deactivated: z.number().int().describe('Pages marked inactive by this call'), page_ids: z.array(Id) }),
    async handler(ctx) {
      const client = await writableClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const { deactivated } = await deactivatePagesNotInList(ctx.write, ctx.command, {
        orgId: client.org_id,
        clientId: client.id,
        activeUrls: ctx.params.active_urls,
      })
      return { deactivated: deactivated.length, page_ids: deactivated }
    },
  }),
  rpc({
    name: 'add_snapshot',
    domain: 'monitoring',
    access: 'write',
    orgScoped: true,
    summary:
      "Record a page's content as of now (its newest snapshot is its current content; prompted_edit rewrites from it). Returns the snapshot id.",
    example: { params: { snapshot: { page_id: 210, content: '<h1>Drain Cleaning in Austin</h1><p>Same-day service …</p>' } }, result: 903 },
    params: z.strictObject({ snapshot: SnapshotInput }),
    result: Id.describe('The snapshot id'),
    async handler(ctx) {
      const s = ctx.params.snapshot
      const page = await visiblePage(ctx.read, ctx.orgId, s.page_id)
      await writableClient(ctx.read, ctx.orgId, page.client_id)
      const { snapshotId } = await recordSnapshot(ctx.write, ctx.command, {
        orgId: page.org_id,
        clientId: page.client_id,
        pageId: page.id,
        title: s.title ?? page.title,
        content: s.content,
        source: 'add_snapshot',
        editId: null,
      })
      return snapshotId
    },
  }),
  rpc({
    name: 'get_latest_snapshot',
    domain: 'monitoring',
    access: 'read',
    orgScoped: true,
    summary: "The page's newest snapshot (its current content), or null when it has none.",
    example: { params: { page_id: 210 } },
    params: z.strictObject({ page_id: PageId }),
    result: SnapshotView.nullable(),
    async handler(ctx) {
      await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      const row = await latestSnapshot(ctx.read, ctx.params.page_id)
      return row ? snapshotView(row) : null
    },
  }),
  rpc({
    name: 'get_snapshots_for_page',
    domain: 'monitoring',
    access: 'read',
    orgScoped: true,
    summary: "The page's snapshots, newest first: add_snapshot content and what site edits published and rolled back.",
    example: { params: { page_id: 210 } },
    params: z.strictObject({ page_id: PageId }),
    paginated: { maxLimit: 500, defaultLimit: 50 },
    result: z.array(SnapshotView),
    async handler(ctx) {
      await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      const rows = await snapshotsForPage(ctx.read, ctx.params.page_id, ctx.page ?? { limit: 50, offset: 0 })
      return rows.map(snapshotView)
    },
  }),
]
