import { z } from 'zod'
import { SUMMARY_MAX_CHARS } from '../../../domain/monitoring/snapshots/summary.js'
import { PageUrl } from '../../../domain/pages/events.js'
import { RankDate } from '../../../domain/search/ranks/rank-row.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  clientPageByUrl,
  firstSnapshots,
  latestMonitoredSnapshot,
  latestPageSummaries,
  pageMetaOf,
  previousSnapshot,
  snapshotDates,
  snapshotOnOrBefore,
} from '../../../projections/monitoring/snapshots/queries.js'
import { snapshotView, visiblePage } from '../../../projections/pages/queries.js'
import type { AnyRpc } from '../../registry.js'
import { rpc } from '../../registry.js'
import { ClientId, PageId } from '../ids.js'
import { SnapshotView } from '../pages.js'

const domain = 'monitoring'

const Day = RankDate.describe('A UTC day, YYYY-MM-DD')
const SnapshotId = Id.describe('The snapshot (an integer id, as add_snapshot or get_snapshots_for_page answered)')

const FirstSnapshotSchema = z
  .object({
    page_id: PageId,
    url: z.string().describe('The page address as the client has it'),
    first_snapshot_id: SnapshotId,
    first_snapshot_date: Day.describe('The UTC day of the page’s first snapshot, YYYY-MM-DD'),
  })
  .describe('A page and its first snapshot')

const PageMetaSchema = z
  .object({
    page_id: PageId,
    url: z.string().describe('The page address as the client has it'),
    snapshot_id: SnapshotId.describe('The snapshot the values come from: the page’s newest crawl or render snapshot'),
    source: z.enum(['crawl', 'render']).describe('Who recorded it: a crawl, or a Chromium render'),
    recorded_at: z.string().describe('When that snapshot was recorded (ISO 8601)'),
    status: z.number().int().describe('The HTTP status the page answered with (after redirects)'),
    final_url: z.string().describe('Where its redirects, if any, ended'),
    title: z.string().nullable().describe('<title>; null when absent'),
    meta_description: z.string().nullable().describe('<meta name="description">; null when absent'),
    canonical: z.string().nullable().describe('<link rel="canonical">, absolute; null when absent'),
    robots: z.string().nullable().describe('The robots meta tag and X-Robots-Tag header, joined; null when neither'),
    noindex: z.boolean().describe('robots says noindex'),
    h1: z.array(z.string()).describe('The texts of the page’s <h1> headings, in document order'),
  })
  .describe('The head of a page as its newest crawl or render saw it')

const PageSummarySchema = z
  .object({
    page_id: PageId,
    url: z.string().describe('The page address as the client has it'),
    snapshot_id: SnapshotId.nullable().describe(
      'The newest crawl or render snapshot; null (and the fields below null) when no scan saw the page yet',
    ),
    recorded_at: z.string().nullable().describe('When that snapshot was recorded (ISO 8601)'),
    status: z.number().int().nullable().describe('The HTTP status the page answered with'),
    title: z.string().nullable().describe('<title>'),
    meta_description: z.string().nullable().describe('<meta name="description">'),
    h1: z.array(z.string()).describe('The texts of the page’s <h1> headings'),
    word_count: z.number().int().nullable().describe('Words of the main text'),
    summary: z
      .string()
      .nullable()
      .describe(
        `The first sentences of the main text, whole sentences up to ${SUMMARY_MAX_CHARS} characters (a longer first sentence is cut at a word, with …); extractive, no language model`,
      ),
  })
  .describe('An active page and what its newest crawl or render saw')

const exampleState = {
  url: 'https://acmeplumbing.com/drain-cleaning/',
  final_url: 'https://acmeplumbing.com/drain-cleaning/',
  status: 200,
  redirects: [],
  content_type: 'text/html; charset=utf-8',
  canonical: 'https://acmeplumbing.com/drain-cleaning/',
  robots: null,
  noindex: false,
  title: 'Drain Cleaning in Austin | Acme Plumbing',
  meta_description: 'Same-day drain cleaning across Austin. Licensed plumbers, upfront prices.',
  headings: [
    { level: 1, text: 'Drain Cleaning in Austin' },
    { level: 2, text: 'Why hire Acme' },
  ],
  word_count: 18,
  internal_links: ['https://acmeplumbing.com/', 'https://acmeplumbing.com/contact/'],
  outgoing_links: [],
  images: [{ src: 'https://acmeplumbing.com/img/van.jpg', alt: 'Acme Plumbing van' }],
  json_ld_types: ['Plumber'],
  hreflang: [],
  main_text: 'Drain Cleaning in Austin. Same-day service for clogged sinks, tubs and main lines. Licensed plumbers, upfront prices.',
  truncated: false,
  content_hash: 'b1946ac92492d2347c6235b4d2611184b1946ac92492d2347c6235b4d2611184',
}

const exampleSnapshot = {
  snapshot_id: 905,
  page_id: 210,
  client_id: 34,
  title: 'Drain Cleaning in Austin | Acme Plumbing',
  content: exampleState.main_text,
  source: 'crawl' as const,
  edit_id: null,
  scan_id: 61,
  state: exampleState,
  etag: '"5f2a-1c"',
  last_modified: 'Tue, 03 Mar 2026 08:12:00 GMT',
  created_at: '2026-03-03T09:00:12.000Z',
}

export const snapshotsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_available_snapshot_dates',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The UTC days on which any page of the client got a snapshot (any source: add_snapshot, site edits, crawls, renders), newest first, as YYYY-MM-DD; [] when none.',
    example: { params: { client_id: 34 }, result: ['2026-03-03', '2026-02-24', '2026-02-17'] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(Day),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return snapshotDates(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_first_snapshot_dates',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Per page of the client that has a snapshot, its first snapshot and that UTC day (when the service first knew its content), in page id order.',
    example: {
      params: { client_id: 34 },
      result: [
        { page_id: 210, url: 'https://acmeplumbing.com/drain-cleaning/', first_snapshot_id: 903, first_snapshot_date: '2026-02-17' },
      ],
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(FirstSnapshotSchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return firstSnapshots(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_previous_snapshot',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The page's snapshot before its newest one (what get_latest_snapshot replaced), or null when it has fewer than two.",
    example: {
      params: { page_id: 210 },
      result: { ...exampleSnapshot, snapshot_id: 903, scan_id: 58, created_at: '2026-02-24T09:00:03.000Z' },
    },
    params: z.strictObject({ page_id: PageId }),
    result: SnapshotView.nullable(),
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      const row = await previousSnapshot(ctx.read, page.id)
      return row ? snapshotView(row) : null
    },
  }),
  rpc({
    name: 'get_snapshot_for_date',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The page as it was on target_date: its newest snapshot recorded on or before that UTC day (snapshots are change points, so a day without one shows the last before it), or null when it had none yet.',
    example: { params: { page_id: 210, target_date: '2026-03-03' }, result: exampleSnapshot },
    params: z.strictObject({ page_id: PageId, target_date: Day.describe('The day, YYYY-MM-DD (UTC)') }),
    result: SnapshotView.nullable(),
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      const row = await snapshotOnOrBefore(ctx.read, page.id, ctx.params.target_date)
      return row ? snapshotView(row) : null
    },
  }),
  rpc({
    name: 'get_latest_meta_for_page_url',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The head of the client's page at page_url (title, meta description, canonical, robots, h1, status) from its newest crawl or render snapshot. URLs compare as add_page compares them (scheme and host case, a fragment and a trailing slash ignored). null when the page has no crawl or render snapshot yet; 404 not_found when the client has no page at that URL.",
    example: {
      params: { client_id: 34, page_url: 'https://acmeplumbing.com/drain-cleaning' },
      result: {
        page_id: 210,
        url: 'https://acmeplumbing.com/drain-cleaning/',
        snapshot_id: 905,
        source: 'crawl',
        recorded_at: '2026-03-03T09:00:12.000Z',
        status: 200,
        final_url: 'https://acmeplumbing.com/drain-cleaning/',
        title: 'Drain Cleaning in Austin | Acme Plumbing',
        meta_description: 'Same-day drain cleaning across Austin. Licensed plumbers, upfront prices.',
        canonical: 'https://acmeplumbing.com/drain-cleaning/',
        robots: null,
        noindex: false,
        h1: ['Drain Cleaning in Austin'],
      },
    },
    params: z.strictObject({ client_id: ClientId, page_url: PageUrl.describe('The page URL (or site path) to look up') }),
    result: PageMetaSchema.nullable(),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const page = await clientPageByUrl(ctx.read, client.id, ctx.params.page_url)
      if (!page) throw new NotFoundError('page', ctx.params.page_url)
      const row = await latestMonitoredSnapshot(ctx.read, page.id)
      return row ? (pageMetaOf(page, row) as z.infer<typeof PageMetaSchema>) : null
    },
  }),
  rpc({
    name: 'get_latest_page_summaries',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `Per active page of the client (page id order): title, meta description, h1, word count, status and a short extractive summary (the first sentences of the main text, up to ${SUMMARY_MAX_CHARS} characters) from its newest crawl or render snapshot; a page no scan saw yet has those fields null.`,
    example: {
      params: { client_id: 34 },
      result: [
        {
          page_id: 210,
          url: 'https://acmeplumbing.com/drain-cleaning/',
          snapshot_id: 905,
          recorded_at: '2026-03-03T09:00:12.000Z',
          status: 200,
          title: 'Drain Cleaning in Austin | Acme Plumbing',
          meta_description: 'Same-day drain cleaning across Austin. Licensed plumbers, upfront prices.',
          h1: ['Drain Cleaning in Austin'],
          word_count: 18,
          summary: 'Drain Cleaning in Austin. Same-day service for clogged sinks, tubs and main lines. Licensed plumbers, upfront prices.',
        },
      ],
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(PageSummarySchema),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return latestPageSummaries(ctx.read, client.id)
    },
  }),
]
