import { z } from 'zod'
import {
  markContentExported,
  markContentPushed,
  recordGeneratedContent,
} from '../../../../commands/publishing/projects/generated-content.js'
import {
  CONTENT_BODY_MAX_LENGTH,
  CONTENT_KINDS,
  CONTENT_WRITER_MAX_LENGTH,
  MAX_CONTENT_IDS,
} from '../../../../domain/publishing/projects/values.js'
import { visibleClient } from '../../../../projections/clients/queries.js'
import {
  contentForClient,
  contentForPage,
  contentForProject,
  contentsForOrg,
  contentView,
  countUnpushedContent,
  unexportedContent,
} from '../../../../projections/publishing/projects/content-queries.js'
import { websiteProjectForOrg } from '../../../../projections/publishing/projects/queries.js'
import { sitemapPageForOrg } from '../../../../projections/publishing/projects/sitemap-queries.js'
import { rpc, type AnyRpc } from '../../../registry.js'
import { ClientId } from '../../ids.js'
import { ContentId, domain, ProjectId, SitemapPageId, WpPostId } from './ids.js'

const Kind = z.enum(CONTENT_KINDS).describe("page_copy (the page's copy), meta (its title and description) or section (one section of it)")

export const ContentSchema = z
  .object({
    id: ContentId,
    project_id: ProjectId,
    sitemap_page_id: SitemapPageId,
    client_id: ClientId,
    kind: Kind,
    version: z.number().int().describe("Its version among the page's content of this kind, from 1"),
    is_current: z.boolean().describe("Whether it is the page's latest version of this kind (the current one)"),
    body: z.string().describe('The content: text or HTML'),
    writer: z.string().describe("Who wrote it: 'built-in' or the model's name"),
    created_at: z.string().describe('When it was recorded (ISO 8601)'),
    exported: z.boolean().describe('Whether it was exported (to a file or the console)'),
    exported_at: z.string().nullable().describe('When it was first exported; null: not yet'),
    pushed: z.boolean().describe("Whether it was put on the client's WordPress"),
    pushed_at: z.string().nullable().describe('When it was last pushed; null: not yet'),
    wp_post_id: z.number().int().nullable().describe('The WordPress post it was pushed to; null: not yet'),
  })
  .describe('Content generated for a sitemap page')

const exampleContent = {
  id: 88,
  project_id: 5,
  sitemap_page_id: 41,
  client_id: 34,
  kind: 'page_copy' as const,
  version: 2,
  is_current: true,
  body: '<h1>Drain cleaning in Austin</h1><p>Same-day service for kitchens, bathrooms and main lines.</p>',
  writer: 'claude-sonnet-4-5',
  created_at: '2026-11-03T11:00:00.000Z',
  exported: false,
  exported_at: null,
  pushed: false,
  pushed_at: null,
  wp_post_id: null,
}

const ContentList = z.array(ContentSchema)

export const generatedContentRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'record_generated_content',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Record content written for a live sitemap page: a new version of the page's content of this kind (the latest is current). " +
      'A deleted page answers 409 sitemap_page_deleted, an archived project 409 website_project_archived. Returns the content.',
    example: {
      params: { sitemap_page_id: 41, kind: 'page_copy', body: exampleContent.body, writer: 'claude-sonnet-4-5' },
      result: exampleContent,
    },
    params: z.strictObject({
      sitemap_page_id: SitemapPageId,
      kind: Kind,
      body: z
        .string()
        .min(1)
        .max(CONTENT_BODY_MAX_LENGTH)
        .describe(`The content, text or HTML (at most ${CONTENT_BODY_MAX_LENGTH} characters)`),
      writer: z
        .string()
        .trim()
        .min(1)
        .max(CONTENT_WRITER_MAX_LENGTH)
        .default('built-in')
        .describe("Who wrote it: 'built-in' (default) or the model's name"),
    }),
    result: ContentSchema,
    async handler(ctx) {
      const p = ctx.params
      const page = await sitemapPageForOrg(ctx.read, p.sitemap_page_id, ctx.orgId)
      const { contentId } = await recordGeneratedContent(ctx.write, ctx.command, {
        orgId: page.org_id,
        projectId: page.project_id,
        sitemapPageId: page.id,
        kind: p.kind,
        body: p.body,
        writer: p.writer,
      })
      await ctx.settle()
      const [row] = await contentsForOrg(ctx.read, [contentId], ctx.orgId)
      return contentView(row!)
    },
  }),
  rpc({
    name: 'mark_content_exported',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Mark contents as exported (to a file or the console): they leave get_unexported_content. Every id must be the organization's " +
      '(404 otherwise, and nothing is marked); one exported before keeps its first time. Returns how many were marked now.',
    example: { params: { content_ids: [88, 89] }, result: 2 },
    params: z.strictObject({
      content_ids: z.array(ContentId).min(1).max(MAX_CONTENT_IDS).describe(`The contents exported (1 to ${MAX_CONTENT_IDS} ids)`),
    }),
    result: z.number().int().describe('How many contents were marked by this call (those exported before are not counted)'),
    async handler(ctx) {
      const rows = await contentsForOrg(ctx.read, ctx.params.content_ids, ctx.orgId)
      const byProject = new Map<number, { orgId: number; ids: number[] }>()
      for (const r of rows) {
        const entry = byProject.get(r.project_id) ?? { orgId: r.org_id, ids: [] }
        entry.ids.push(r.id)
        byProject.set(r.project_id, entry)
      }
      let marked = 0
      for (const [projectId, { orgId, ids }] of byProject) {
        marked += (await markContentExported(ctx.write, ctx.command, { orgId, projectId, contentIds: ids })).marked
      }
      return marked
    },
  }),
  rpc({
    name: 'mark_content_pushed',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Mark a content as put on the client's WordPress, in post wp_post_id: it leaves count_unpushed_content_for_client. Pushed " +
      'again to the same post changes nothing. Returns the content.',
    example: {
      params: { content_id: 88, wp_post_id: 812 },
      result: { ...exampleContent, pushed: true, pushed_at: '2026-11-04T09:00:00.000Z', wp_post_id: 812 },
    },
    params: z.strictObject({ content_id: ContentId, wp_post_id: WpPostId.describe('The WordPress post it was put in') }),
    result: ContentSchema,
    async handler(ctx) {
      const [row] = await contentsForOrg(ctx.read, [ctx.params.content_id], ctx.orgId)
      await markContentPushed(ctx.write, ctx.command, {
        orgId: row!.org_id,
        projectId: row!.project_id,
        contentId: row!.id,
        wpPostId: ctx.params.wp_post_id,
      })
      await ctx.settle()
      const [after] = await contentsForOrg(ctx.read, [row!.id], ctx.orgId)
      return contentView(after!)
    },
  }),
  rpc({
    name: 'get_generated_content_for_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every version of a sitemap page's generated content (a deleted page's too), by kind, newest first; is_current marks the latest of each kind.",
    example: { params: { sitemap_page_id: 41 }, result: [exampleContent] },
    params: z.strictObject({ sitemap_page_id: SitemapPageId }),
    result: ContentList.describe('The contents, by kind, newest first'),
    async handler(ctx) {
      const page = await sitemapPageForOrg(ctx.read, ctx.params.sitemap_page_id, ctx.orgId)
      return contentForPage(ctx.read, page.id)
    },
  }),
  rpc({
    name: 'get_generated_content_for_project',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The project's generated content by page, kind and newest version first; current_only keeps each page's latest of each kind.",
    example: { params: { project_id: 5, current_only: true }, result: [exampleContent] },
    params: z.strictObject({
      project_id: ProjectId,
      current_only: z.boolean().default(false).describe('Only the current version of each page and kind (default false: every version)'),
    }),
    result: ContentList.describe('The contents'),
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      return contentForProject(ctx.read, project.id, ctx.params.current_only)
    },
  }),
  rpc({
    name: 'get_all_content_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every content generated for the client's website projects, newest first, a page at a time; current_only keeps the latest of each page and kind.",
    example: { params: { client_id: 34 }, result: [exampleContent] },
    params: z.strictObject({
      client_id: ClientId,
      current_only: z.boolean().default(false).describe('Only the current version of each page and kind (default false: every version)'),
    }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: ContentList.describe('The contents, newest first'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return contentForClient(ctx.read, client.id, ctx.params.current_only, ctx.page!)
    },
  }),
  rpc({
    name: 'get_unexported_content',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's content waiting to be exported: the current version of each live sitemap page's content of each kind, not yet " +
      'marked exported (mark_content_exported), oldest first.',
    example: { params: { client_id: 34 }, result: [exampleContent] },
    params: z.strictObject({ client_id: ClientId }),
    result: ContentList.describe('The contents, oldest first'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return unexportedContent(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'count_unpushed_content_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "How many of the client's current contents (the latest of each live sitemap page and kind) are not yet on its WordPress (mark_content_pushed).",
    example: { params: { client_id: 34 }, result: 3 },
    params: z.strictObject({ client_id: ClientId }),
    result: z.number().int().describe('The number of current contents not yet pushed'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return countUnpushedContent(ctx.read, client.id)
    },
  }),
]
