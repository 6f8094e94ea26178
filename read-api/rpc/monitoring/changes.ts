import { z } from 'zod'
import { SiteChangeAttribution, SiteChangeKind, SiteChangeSeverity } from '../../../domain/monitoring/changes/events.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { siteChangesByMonth, siteChangesOfClient, siteChangesOfPage } from '../../../projections/monitoring/changes/queries.js'
import { visiblePage } from '../../../projections/pages/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId, EditId, PageId } from '../ids.js'

const domain = 'monitoring'

export const SiteChangeSchema = z
  .object({
    id: Id.describe('The change (an integer id; site.change_detected webhooks carry it as change_id)'),
    client_id: ClientId,
    page_id: PageId,
    url: z.string().describe('The URL crawled'),
    kind: SiteChangeKind.describe(
      'page_added, page_gone (now 404/410, or redirecting elsewhere), status_changed, redirect_changed, title_changed, ' +
        'meta_description_changed, canonical_changed, robots_changed, headings_changed, body_changed',
    ),
    severity: SiteChangeSeverity.describe('high: page gone, noindex added, title lost; medium and low: see the site changes reference'),
    before: z
      .string()
      .nullable()
      .describe('The value before (at most 500 characters); body_changed: the words removed; null when there was none'),
    after: z
      .string()
      .nullable()
      .describe('The value after (at most 500 characters); body_changed: the words added; null when there is none'),
    words_changed: z.number().int().nullable().describe('body_changed: words added + words removed of the main text; null for other kinds'),
    attribution: SiteChangeAttribution.describe(
      'site_edit: it matches a site edit this service applied (edit_id); external: nobody here made it; unknown: a first observation',
    ),
    edit_id: EditId.nullable().describe('The site edit it matches (attribution site_edit); null otherwise'),
    snapshot_id: Id.describe('The snapshot that shows the change (get_snapshots_for_page lists it)'),
    previous_snapshot_id: Id.nullable().describe('The snapshot it was compared with; null for page_added'),
    detected_at: z.string().describe('When the crawl recorded it (ISO 8601)'),
  })
  .describe("A change seen between two crawls of a client's page")

export const exampleChange = {
  id: 5120,
  client_id: 34,
  page_id: 210,
  url: 'https://acme-plumbing.example/services',
  kind: 'title_changed' as const,
  severity: 'medium' as const,
  before: 'Plumbing services | Acme',
  after: 'Emergency plumbing in Austin | Acme',
  words_changed: null,
  attribution: 'site_edit' as const,
  edit_id: 77,
  snapshot_id: 4410,
  previous_snapshot_id: 4388,
  detected_at: '2026-11-27T06:00:12.000Z',
}

const Since = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .describe('Only changes detected at or after this time: a day YYYY-MM-DD (00:00 UTC) or an ISO 8601 instant with offset')

const MonthSchema = z
  .object({
    month: z.string().describe('YYYY-MM (UTC)'),
    changes: z.number().int().describe('Site changes detected that month'),
    pages: z.number().int().describe('Distinct pages with a change that month'),
  })
  .describe("One month of a client's site changes")

export const siteChangesRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_site_changes',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's site changes, newest first: what each crawl found different on a page (page added or gone, status, redirect, " +
      'title, meta description, canonical, robots, headings, body by N words), with severity and attribution (site_edit, external, unknown).',
    example: { params: { client_id: 34, since: '2026-11-01', attribution: 'site_edit' }, result: [exampleChange] },
    params: z.strictObject({
      client_id: ClientId,
      since: Since.optional(),
      attribution: SiteChangeAttribution.optional().describe('Only changes with this attribution: site_edit, external or unknown'),
    }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(SiteChangeSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const since =
        ctx.params.since === undefined
          ? undefined
          : new Date(ctx.params.since.length === 10 ? `${ctx.params.since}T00:00:00Z` : ctx.params.since)
      return siteChangesOfClient(ctx.read, client.id, {
        ...(ctx.page ?? { limit: 100, offset: 0 }),
        since,
        attribution: ctx.params.attribution,
      })
    },
  }),
  rpc({
    name: 'get_site_changes_for_page',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The page's site changes, newest first.",
    example: { params: { page_id: 210 }, result: [exampleChange] },
    params: z.strictObject({ page_id: PageId }),
    paginated: { maxLimit: 500, defaultLimit: 100 },
    result: z.array(SiteChangeSchema),
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      return siteChangesOfPage(ctx.read, page.id, ctx.page ?? { limit: 100, offset: 0 })
    },
  }),
  rpc({
    name: 'count_site_changes_by_month',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's site changes counted per UTC month, newest first, for the last `months` months including the current one; " +
      'a month without changes is listed with zeros.',
    example: {
      params: { client_id: 34, months: 3 },
      result: [
        { month: '2026-11', changes: 14, pages: 6 },
        { month: '2026-10', changes: 0, pages: 0 },
        { month: '2026-09', changes: 3, pages: 2 },
      ],
    },
    params: z.strictObject({
      client_id: ClientId,
      months: z
        .number()
        .int()
        .min(1)
        .max(120)
        .optional()
        .describe('How many months back, the current one included (default 12, at most 120)'),
    }),
    result: z.array(MonthSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return siteChangesByMonth(ctx.read, client.id, ctx.params.months ?? 12, ctx.write.clock())
    },
  }),
]
