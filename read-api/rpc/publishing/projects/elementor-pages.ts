import { z } from 'zod'
import { recordElementorPage, removeElementorPage } from '../../../../commands/publishing/projects/elementor-pages.js'
import { MAX_SYNC_REQUESTS, syncElementorPages } from '../../../../commands/publishing/projects/elementor-sync.js'
import { clientSitesOfSettings } from '../connections-settings.js'
import {
  ELEMENTOR_DATA_MAX_BYTES,
  ELEMENTOR_LINK_MAX_LENGTH,
  ELEMENTOR_SLUG_MAX_LENGTH,
  ELEMENTOR_STATUS_MAX_LENGTH,
  ELEMENTOR_TITLE_MAX_LENGTH,
  MODIFIED_GMT_PATTERN,
} from '../../../../domain/publishing/projects/elementor-values.js'
import { elementorPageOf, elementorPagesOf, elementorPageStampsOf } from '../../../../projections/publishing/projects/elementor-queries.js'
import { websiteProjectForOrg } from '../../../../projections/publishing/projects/queries.js'
import { rpc, type AnyRpc } from '../../../registry.js'
import { ClientId } from '../../ids.js'
import { domain, ProjectId, WpPostId } from './ids.js'

const ModifiedGmt = z
  .string()
  .regex(MODIFIED_GMT_PATTERN)
  .describe("The page's last-modified stamp as WordPress gives it (modified_gmt): YYYY-MM-DDTHH:MM:SS, UTC")
const Sha256 = z.string().describe('The sha256 of the elementor_data text (lowercase hex)')

const summaryShape = {
  project_id: ProjectId,
  client_id: ClientId,
  wp_post_id: WpPostId,
  title: z.string().describe("The page's title on the site"),
  slug: z.string().nullable().describe("The page's slug on the site; null: not given"),
  status: z.string().nullable().describe("WordPress's post status (publish, draft, private, …); null: not given"),
  link: z.string().nullable().describe("The page's address on the site; null: not given"),
  modified_gmt: ModifiedGmt,
  elementor_data_sha256: Sha256,
  elementor_data_bytes: z.number().int().describe('The size of the elementor_data text in bytes (UTF-8)'),
  widget_counts: z.record(z.string(), z.number().int()).describe('How many widgets of each widgetType the page holds (heading, image, …)'),
  recorded_at: z.string().describe('When these values were recorded (ISO 8601)'),
}

const SummarySchema = z.object(summaryShape).describe('A page of the project’s site built with Elementor, without its data')
const PageSchema = z
  .object({
    ...summaryShape,
    elementor_data: z.string().describe('The `_elementor_data` JSON text: the page’s elements, as Elementor stores them'),
  })
  .describe('A page of the project’s site built with Elementor, with its data')
const StampSchema = z
  .object({ wp_post_id: WpPostId, modified_gmt: ModifiedGmt, elementor_data_sha256: Sha256 })
  .describe("A page's recorded stamp")

const exampleData =
  '[{"id":"1a2b3c4","elType":"section","elements":[{"id":"5d6e7f8","elType":"column","elements":[' +
  '{"id":"9a0b1c2","elType":"widget","widgetType":"heading","settings":{"title":"Drain cleaning in Austin"}},' +
  '{"id":"3d4e5f6","elType":"widget","widgetType":"button","settings":{"text":"Book a visit"}}]}]}]'
const exampleSummary = {
  project_id: 5,
  client_id: 34,
  wp_post_id: 812,
  title: 'Drain cleaning',
  slug: 'drain-cleaning',
  status: 'publish',
  link: 'https://acme-plumbing.example/drain-cleaning/',
  modified_gmt: '2026-11-03T10:42:17',
  elementor_data_sha256: '557fddc37492c769365534a9e0bf4fc25ac3827f807b9198809aefe7480e6d69',
  elementor_data_bytes: exampleData.length,
  widget_counts: { button: 1, heading: 1 },
  recorded_at: '2026-11-03T11:00:00.000Z',
}
const examplePage = { ...exampleSummary, elementor_data: exampleData }

export const elementorPageRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'record_elementor_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Record a page of the project's WordPress site built with Elementor, as read from the site: its stamp (modified_gmt) and " +
      '`_elementor_data` (a JSON array, at most 512 KiB). The same stamp and data again record nothing. Not JSON, not an array or ' +
      'too large: 400 validation_failed; an archived project: 409 website_project_archived. Returns the page.',
    example: {
      params: {
        project_id: 5,
        wp_post_id: 812,
        title: 'Drain cleaning',
        slug: 'drain-cleaning',
        status: 'publish',
        link: 'https://acme-plumbing.example/drain-cleaning/',
        modified_gmt: '2026-11-03T10:42:17',
        elementor_data: exampleData,
      },
      result: examplePage,
    },
    params: z.strictObject({
      project_id: ProjectId,
      wp_post_id: WpPostId,
      title: z.string().max(ELEMENTOR_TITLE_MAX_LENGTH).describe("The page's title on the site"),
      slug: z.string().max(ELEMENTOR_SLUG_MAX_LENGTH).nullable().default(null).describe("The page's slug on the site (optional)"),
      status: z
        .string()
        .max(ELEMENTOR_STATUS_MAX_LENGTH)
        .nullable()
        .default(null)
        .describe("WordPress's post status: publish, draft, private, … (optional)"),
      link: z.string().max(ELEMENTOR_LINK_MAX_LENGTH).nullable().default(null).describe("The page's address on the site (optional)"),
      modified_gmt: ModifiedGmt,
      elementor_data: z
        .string()
        .describe(`The page's \`_elementor_data\` meta: JSON text of an array of elements (at most ${ELEMENTOR_DATA_MAX_BYTES} bytes)`),
    }),
    result: PageSchema,
    async handler(ctx) {
      const p = ctx.params
      const project = await websiteProjectForOrg(ctx.read, p.project_id, ctx.orgId)
      await recordElementorPage(ctx.write, ctx.command, {
        orgId: project.org_id,
        projectId: project.id,
        page: {
          wpPostId: p.wp_post_id,
          title: p.title,
          slug: p.slug,
          status: p.status,
          link: p.link,
          modifiedGmt: p.modified_gmt,
          elementorData: p.elementor_data,
        },
      })
      await ctx.settle()
      return elementorPageOf(ctx.read, project.id, p.wp_post_id)
    },
  }),
  rpc({
    name: 'remove_elementor_page',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Record that a page is gone from the project's site: it leaves the Elementor page reads. A page never recorded answers 404; " +
      'one removed before changes nothing. Returns whether it was removed by this call.',
    example: { params: { project_id: 5, wp_post_id: 812 }, result: true },
    params: z.strictObject({ project_id: ProjectId, wp_post_id: WpPostId }),
    result: z.boolean().describe('true: removed now; false: it was removed before'),
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      const { removed } = await removeElementorPage(ctx.write, ctx.command, {
        orgId: project.org_id,
        projectId: project.id,
        wpPostId: ctx.params.wp_post_id,
      })
      await ctx.settle()
      return removed
    },
  }),
  rpc({
    name: 'get_elementor_pages',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The Elementor pages recorded for the project's site, by post id, without their data (get_elementor_page has it): stamp, " +
      'sha256, size and widget counts.',
    example: { params: { project_id: 5 }, result: [exampleSummary] },
    params: z.strictObject({ project_id: ProjectId }),
    result: z.array(SummarySchema).describe('The pages, by post id'),
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      return elementorPagesOf(ctx.read, project.id)
    },
  }),
  rpc({
    name: 'get_elementor_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "One Elementor page of the project's site with its `_elementor_data` text; 404 when none is recorded (or it was removed).",
    example: { params: { project_id: 5, wp_post_id: 812 }, result: examplePage },
    params: z.strictObject({ project_id: ProjectId, wp_post_id: WpPostId }),
    result: PageSchema,
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      return elementorPageOf(ctx.read, project.id, ctx.params.wp_post_id)
    },
  }),
  rpc({
    name: 'get_elementor_page_stamps',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Each recorded Elementor page's stamp and data sha256, by post id: compare with the site's modified_gmt to find the pages " +
      'edited on the site since they were recorded.',
    example: {
      params: { project_id: 5 },
      result: [{ wp_post_id: 812, modified_gmt: '2026-11-03T10:42:17', elementor_data_sha256: exampleSummary.elementor_data_sha256 }],
    },
    params: z.strictObject({ project_id: ProjectId }),
    result: z.array(StampSchema).describe('The stamps, by post id'),
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      return elementorPageStampsOf(ctx.read, project.id)
    },
  }),
  rpc({
    name: 'sync_elementor_pages',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Read the pages of the project's client's connected WordPress site (every status) and record each page built with Elementor, " +
      'as record_elementor_page would: new pages and pages with another stamp or data are recorded, the rest change nothing. ' +
      `Once every page was listed (at most ${MAX_SYNC_REQUESTS * 100} per call; complete false beyond, and nothing is removed), ` +
      'recorded pages the site no longer has are removed. Pages whose data the records refuse are listed in skipped. A client without ' +
      'a connection: 409 site_not_connected; a site failure: 502 site_publish_failed with its category; an archived project: 409 ' +
      'website_project_archived. Returns the counts.',
    example: {
      params: { project_id: 5 },
      result: { seen: 14, elementor: 9, recorded: 2, unchanged: 7, removed: 1, skipped: [], skipped_count: 0, complete: true },
    },
    params: z.strictObject({ project_id: ProjectId }),
    result: z
      .object({
        seen: z.number().int().describe('Pages the site listed'),
        elementor: z.number().int().describe('Of those, pages built with Elementor'),
        recorded: z.number().int().describe('Recorded now: new, or with another stamp or data'),
        unchanged: z.number().int().describe('Already recorded with this stamp and data'),
        removed: z.number().int().describe('Recorded before and gone from the site: removed now (only when complete)'),
        skipped: z
          .array(z.object({ wp_post_id: WpPostId, reason: z.string().describe('Why the records refuse its data') }))
          .describe('Elementor pages not recorded (their data is not JSON or too large); at most 20 listed'),
        skipped_count: z.number().int().describe('How many were skipped in all'),
        complete: z
          .boolean()
          .describe('false: the site has more pages than one call reads; call again after fewer changes, nothing was removed'),
      })
      .describe('What the sync found and did'),
    async handler(ctx) {
      const project = await websiteProjectForOrg(ctx.read, ctx.params.project_id, ctx.orgId)
      const { position: _position, ...outcome } = await syncElementorPages(ctx.write, ctx.command, {
        orgId: project.org_id,
        projectId: project.id,
        sites: clientSitesOfSettings(ctx.write, ctx.settings),
      })
      await ctx.settle()
      return { ...outcome, skipped: [...outcome.skipped] }
    },
  }),
]
