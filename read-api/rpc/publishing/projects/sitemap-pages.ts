import { z } from 'zod'
import {
  addSitemapPage,
  deleteSitemapPage,
  setSitemapPageStatus,
  updateSitemapPage,
} from '../../../../commands/publishing/projects/sitemap-pages.js'
import { Slug } from '../../../../domain/clients/values.js'
import {
  SITEMAP_KEYWORD_MAX_LENGTH,
  SITEMAP_PAGE_STATUSES,
  SITEMAP_PAGE_TYPES,
  SITEMAP_TITLE_MAX_LENGTH,
} from '../../../../domain/publishing/projects/values.js'
import { websiteProjectForOrg } from '../../../../projections/publishing/projects/queries.js'
import { sitemapPageForOrg, sitemapPagesForProject, sitemapPageView } from '../../../../projections/publishing/projects/sitemap-queries.js'
import type { ReadDb } from '../../../../projections/tables.js'
import { rpc, type AnyRpc } from '../../../registry.js'
import { ClientId } from '../../ids.js'
import { domain, ProjectId, SitemapPageId, WpPostId } from './ids.js'

const Title = z
  .string()
  .trim()
  .min(1)
  .max(SITEMAP_TITLE_MAX_LENGTH)
  .describe(`The page's title (at most ${SITEMAP_TITLE_MAX_LENGTH} characters)`)
const PageSlug = Slug.describe(
  "The page's slug, unique among the project's live pages: lower-case letters, digits and single hyphens (at most 100); '' is the home page (the site's root)",
)
const ParentId = SitemapPageId.nullable().describe('The live page of the same project it sits under; null: a top-level page')
const PageType = z
  .enum(SITEMAP_PAGE_TYPES)
  .describe('What the page is for: home, service, location, about, contact, blog_index, landing or other')
const Position = z.number().int().min(0).max(1_000_000).describe('Its order among its siblings, lower first')
const Keyword = z
  .string()
  .trim()
  .max(SITEMAP_KEYWORD_MAX_LENGTH)
  .nullable()
  .describe(`The search phrase the page is written for (at most ${SITEMAP_KEYWORD_MAX_LENGTH} characters); null: none`)
const Status = z
  .enum(SITEMAP_PAGE_STATUSES)
  .describe('planned, drafting, drafted, approved or published (on the site, with its wp_post_id)')

export const SitemapPageSchema = z
  .object({
    id: SitemapPageId,
    project_id: ProjectId,
    client_id: ClientId,
    title: z.string().describe("The page's title"),
    slug: z.string().describe("The page's slug ('' for the home page)"),
    parent_id: z.number().int().nullable().describe('The page it sits under; null: top level'),
    page_type: PageType,
    position: z.number().int().describe('Its order among its siblings'),
    primary_keyword: z.string().nullable().describe('The search phrase it is written for; null: none'),
    status: Status,
    wp_post_id: z.number().int().nullable().describe('Its post id on the WordPress site once published; null before'),
    depth: z.number().int().describe('Its level in the tree: 1 for a top-level page'),
    path: z
      .string()
      .describe("Its address on the site from its ancestors' slugs: '/' for the home page, '/services/drain-cleaning/' below"),
    created_at: z.string().describe('When it was added (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
    status_changed_at: z.string().describe('When it entered its current status (ISO 8601)'),
    deleted_at: z.string().nullable().describe('When delete_sitemap_page deleted it; null: live'),
  })
  .describe("A sitemap page: a page planned for a website project's site")

export const examplePage = {
  id: 41,
  project_id: 5,
  client_id: 34,
  title: 'Drain cleaning in Austin',
  slug: 'drain-cleaning',
  parent_id: 40,
  page_type: 'service' as const,
  position: 0,
  primary_keyword: 'drain cleaning austin',
  status: 'drafted' as const,
  wp_post_id: null,
  depth: 2,
  path: '/services/drain-cleaning/',
  created_at: '2026-11-02T09:10:00.000Z',
  updated_at: '2026-11-03T11:00:00.000Z',
  status_changed_at: '2026-11-03T11:00:00.000Z',
  deleted_at: null,
}

type Ctx = { read: ReadDb; orgId: number | null; settle: () => Promise<void> }

async function settledPage(ctx: Ctx, pageId: number) {
  await ctx.settle()
  return sitemapPageView(ctx.read, await sitemapPageForOrg(ctx.read, pageId, ctx.orgId))
}

/** The given fields only (an omitted one stays as it is). */
const defined = <T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> }

export const sitemapPageRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'add_sitemap_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Plan a page of a website project's site. slug defaults to '' for the home page and to the title's slug otherwise, and must be " +
      'free among the live pages of the project (409 sitemap_page_slug_taken); parent_id must be a live page of the project (409 ' +
      'sitemap_page_parent_invalid); position defaults to after the last sibling. An archived project answers 409 website_project_archived. Returns the page.',
    example: {
      params: {
        project_id: 5,
        title: 'Drain cleaning in Austin',
        slug: 'drain-cleaning',
        parent_id: 40,
        page_type: 'service',
        primary_keyword: 'drain cleaning austin',
      },
      result: { ...examplePage, status: 'planned' as const },
    },
    params: z.strictObject({
      project_id: ProjectId,
      title: Title,
      slug: PageSlug.optional(),
      parent_id: ParentId.default(null).describe('The live page of the project it sits under (default none: top level)'),
      page_type: PageType.default('other').describe('What the page is for (default other)'),
      position: Position.optional().describe('Its order among its siblings (default: after the last one)'),
      primary_keyword: Keyword.default(null).describe('The search phrase it is written for (default none)'),
      status: z
        .enum(['planned', 'drafting', 'drafted', 'approved'])
        .default('planned')
        .describe('Where it starts (default planned; a page becomes published through set_sitemap_page_status with its wp_post_id)'),
    }),
    result: SitemapPageSchema,
    async handler(ctx) {
      const p = ctx.params
      const project = await websiteProjectForOrg(ctx.read, p.project_id, ctx.orgId)
      const { pageId } = await addSitemapPage(ctx.write, ctx.command, {
        orgId: project.org_id,
        projectId: project.id,
        status: p.status,
        fields: {
          title: p.title,
          slug: p.slug ?? null,
          parent_id: p.parent_id,
          page_type: p.page_type,
          position: p.position ?? null,
          primary_keyword: p.primary_keyword || null,
        },
      })
      return settledPage(ctx, pageId)
    },
  }),
  rpc({
    name: 'update_sitemap_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Change a live page: the fields given replace its own, the others stay. A new slug must be free in the project; a new parent must be a live page of it and not the page or one below it (409 sitemap_page_parent_invalid). Returns the page.',
    example: {
      params: { page_id: 41, title: 'Drain cleaning', position: 2 },
      result: { ...examplePage, title: 'Drain cleaning', position: 2 },
    },
    params: z.strictObject({
      page_id: SitemapPageId,
      title: Title.optional(),
      slug: PageSlug.optional(),
      parent_id: ParentId.optional(),
      page_type: PageType.optional(),
      position: Position.optional(),
      primary_keyword: Keyword.optional(),
    }),
    result: SitemapPageSchema,
    async handler(ctx) {
      const { page_id, ...changes } = ctx.params
      const page = await sitemapPageForOrg(ctx.read, page_id, ctx.orgId)
      const given = defined(changes)
      if (given.primary_keyword === '') given.primary_keyword = null
      await updateSitemapPage(ctx.write, ctx.command, { orgId: page.org_id, projectId: page.project_id, pageId: page.id, changes: given })
      return settledPage(ctx, page.id)
    },
  }),
  rpc({
    name: 'set_sitemap_page_status',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Move a live page forward any number of stages (planned → drafting → drafted → approved → published) or back one (409 ' +
      "sitemap_page_status_invalid otherwise). published needs wp_post_id, the page's post on the site (given now or earlier). Returns the page.",
    example: {
      params: { page_id: 41, status: 'published', wp_post_id: 812 },
      result: { ...examplePage, status: 'published' as const, wp_post_id: 812 },
    },
    params: z.strictObject({
      page_id: SitemapPageId,
      status: Status,
      wp_post_id: WpPostId.optional().describe("The page's post id on the WordPress site (required for published unless it has one)"),
    }),
    result: SitemapPageSchema,
    async handler(ctx) {
      const p = ctx.params
      const page = await sitemapPageForOrg(ctx.read, p.page_id, ctx.orgId)
      await setSitemapPageStatus(ctx.write, ctx.command, {
        orgId: page.org_id,
        projectId: page.project_id,
        pageId: page.id,
        status: p.status,
        wpPostId: p.wp_post_id ?? null,
      })
      return settledPage(ctx, page.id)
    },
  }),
  rpc({
    name: 'delete_sitemap_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Soft-delete a page: it leaves the sitemap, its slug is free again, its id and generated content stay readable. A page with ' +
      'live children answers 409 sitemap_page_has_children unless with_children is true, which deletes them with it. Deleting again ' +
      'changes nothing. Returns the ids deleted by this call (children first).',
    example: { params: { page_id: 40, with_children: true }, result: { deleted_page_ids: [41, 40] } },
    params: z.strictObject({
      page_id: SitemapPageId,
      with_children: z.boolean().default(false).describe('Also delete every page below it (default false: refused when it has any)'),
    }),
    result: z
      .object({
        deleted_page_ids: z.array(SitemapPageId).describe('The pages this call deleted, children first; empty when it was already deleted'),
      })
      .describe('What was deleted'),
    async handler(ctx) {
      const page = await sitemapPageForOrg(ctx.read, ctx.params.page_id, ctx.orgId)
      const { deletedIds } = await deleteSitemapPage(ctx.write, ctx.command, {
        orgId: page.org_id,
        projectId: page.project_id,
        pageId: page.id,
        withChildren: ctx.params.with_children,
      })
      return { deleted_page_ids: deletedIds }
    },
  }),
  rpc({
    name: 'get_sitemap_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "One sitemap page with its depth and path in the tree; a deleted one is still answered (deleted_at set). Another organization's answers 404.",
    example: { params: { page_id: 41 }, result: examplePage },
    params: z.strictObject({ page_id: SitemapPageId }),
    result: SitemapPageSchema,
    async handler(ctx) {
      return sitemapPageView(ctx.read, await sitemapPageForOrg(ctx.read, ctx.params.page_id, ctx.orgId))
    },
  }),
  rpc({
    name: 'get_sitemap_pages_for_project',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The project's live sitemap pages in tree order (each page followed by its children, siblings by position), optionally only those of one status.",
    example: { params: { project_id: 5, status: 'drafted' }, result: [examplePage] },
    params: z.strictObject({
      project_id: ProjectId,
      status: Status.optional().describe('Only pages of this status (default every status)'),
    }),
    result: z.array(SitemapPageSchema).describe('The pages, in tree order'),
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      return sitemapPagesForProject(ctx.read, project.id, ctx.params.status)
    },
  }),
]
