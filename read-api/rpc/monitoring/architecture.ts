import { z } from 'zod'
import {
  DEEP_PAGE_CLICKS,
  MAX_FLAGGED_LISTED,
  MAX_INLINK_SOURCES,
  MAX_PAGES_LISTED,
  MAX_TREE_CHILDREN,
  MAX_TREE_LEVELS,
  MAX_TREE_NODES,
} from '../../../domain/monitoring/architecture/tree.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { MAX_ARCHITECTURE_LINKS, siteArchitectureOf } from '../../../projections/monitoring/architecture/queries.js'
import { type AnyRpc, rpc } from '../../registry.js'
import { ClientId, PageId } from '../ids.js'

const domain = 'monitoring'

const ArchitecturePageSchema = z
  .object({
    url: z.string().describe('The page URL as the crawl fetched it'),
    page_id: PageId.nullable().describe('The page (get_pages_for_client); null when the crawl recorded none for this URL'),
    status: z.number().int().nullable().describe('The HTTP status the crawl saw; null when the fetch failed'),
    in_sitemap: z.boolean().describe("The site's sitemap lists it (or a URL redirecting to it)"),
    depth: z
      .number()
      .int()
      .nullable()
      .describe('Clicks from the home page over internal links (0 for the home page); null: no link path from the home page reaches it'),
    inlinks: z.number().int().describe('Distinct crawled pages linking here (the page itself not counted)'),
    inlink_sources: z.array(z.string()).describe(`Up to ${MAX_INLINK_SOURCES} of those pages' URLs, shallowest first`),
  })
  .describe('A crawled page in the site graph')

const TreeRowSchema = z
  .object({
    path: z.string().describe('The path from the root, e.g. /services/drains (a page on another host of the site: //host/…)'),
    parent: z.string().nullable().describe("The parent row's path; null for the root"),
    segment: z.string().describe("The last path segment ('' for the root)"),
    level: z.number().int().describe('0 for the root, 1 for its children, …: indent by it to draw the tree'),
    url: z.string().nullable().describe('The crawled page at exactly this path; null for a folder no page sits at'),
    page_id: PageId.nullable().describe('That page, if the crawl recorded one'),
    depth: z.number().int().nullable().describe("That page's click depth (null: unreachable, or no page here)"),
    pages: z.number().int().describe('Crawled pages at this path and below it, cut children included'),
    omitted_children: z
      .number()
      .int()
      .describe('Children not listed (beyond the level, breadth or node bounds); their pages are in `pages`'),
  })
  .describe('A node of the URL tree')

const ArchitectureSchema = z
  .object({
    client_id: ClientId,
    basis: z
      .enum(['crawl', 'snapshots', 'none'])
      .describe(
        'crawl: the latest completed crawl; snapshots: no crawl completed yet, the pages with a crawled snapshot (no sitemap known); none: nothing crawled',
      ),
    scan_id: z.number().int().nullable().describe('The crawl read (get_scan_session); null unless basis is crawl'),
    as_of: z.string().nullable().describe('When that crawl finished, else when the newest page state was recorded (ISO 8601)'),
    links_cut: z.boolean().describe(`More than ${MAX_ARCHITECTURE_LINKS} internal links: the rest were not read, depths may be too deep`),
    home_url: z.string().describe("The home page (the client's website URL, or the crawled page it redirects to): depth 0"),
    summary: z
      .object({
        pages: z.number().int().describe('Pages in the graph (a redirecting URL counts as its target)'),
        reachable: z.number().int().describe('Pages a link path from the home page reaches'),
        unreachable: z.number().int().describe('Pages none reaches'),
        max_depth: z.number().int().nullable().describe('The deepest reachable page; null when none is'),
        orphans: z.number().int().describe('Orphan pages, all of them'),
        deep: z.number().int().describe(`Pages deeper than ${DEEP_PAGE_CLICKS} clicks, all of them`),
        links: z.number().int().describe('Distinct internal links between crawled pages'),
      })
      .describe('Whole counts, whatever the lists below leave out'),
    pages: z.array(ArchitecturePageSchema).describe(`The pages by depth (unreachable last) then URL, at most ${MAX_PAGES_LISTED}`),
    orphan_pages: z
      .array(ArchitecturePageSchema)
      .describe(`Pages in the sitemap that no crawled page links to (the home page aside), at most ${MAX_FLAGGED_LISTED}`),
    deep_pages: z
      .array(ArchitecturePageSchema)
      .describe(`Pages more than ${DEEP_PAGE_CLICKS} clicks from the home page, at most ${MAX_FLAGGED_LISTED}`),
    tree: z
      .array(TreeRowSchema)
      .describe(
        `The URL tree by path segments, flat in drawing order (each row after its parent, children alphabetically): at most ${MAX_TREE_LEVELS} levels, ${MAX_TREE_CHILDREN} children a node (the biggest branches) and ${MAX_TREE_NODES} rows`,
      ),
  })
  .describe("The client's site architecture")

const page = (url: string, page_id: number, depth: number | null, inlinks: number, inlink_sources: string[], in_sitemap = true) => ({
  url,
  page_id,
  status: 200,
  in_sitemap,
  depth,
  inlinks,
  inlink_sources,
})
const S = 'https://acme-plumbing.example'
const exampleResult = {
  client_id: 34,
  basis: 'crawl' as const,
  scan_id: 812,
  as_of: '2026-11-02T06:14:09.000Z',
  links_cut: false,
  home_url: `${S}/`,
  summary: { pages: 4, reachable: 3, unreachable: 1, max_depth: 2, orphans: 1, deep: 0, links: 4 },
  pages: [
    page(`${S}/`, 501, 0, 1, [`${S}/services`]),
    page(`${S}/services`, 502, 1, 1, [`${S}/`]),
    page(`${S}/services/drains`, 503, 2, 1, [`${S}/services`]),
    page(`${S}/old-offer`, 504, null, 0, []),
  ],
  orphan_pages: [page(`${S}/old-offer`, 504, null, 0, [])],
  deep_pages: [],
  tree: [
    { path: '/', parent: null, segment: '', level: 0, url: `${S}/`, page_id: 501, depth: 0, pages: 4, omitted_children: 0 },
    {
      path: '/old-offer',
      parent: '/',
      segment: 'old-offer',
      level: 1,
      url: `${S}/old-offer`,
      page_id: 504,
      depth: null,
      pages: 1,
      omitted_children: 0,
    },
    {
      path: '/services',
      parent: '/',
      segment: 'services',
      level: 1,
      url: `${S}/services`,
      page_id: 502,
      depth: 1,
      pages: 2,
      omitted_children: 0,
    },
    {
      path: '/services/drains',
      parent: '/services',
      segment: 'drains',
      level: 2,
      url: `${S}/services/drains`,
      page_id: 503,
      depth: 2,
      pages: 1,
      omitted_children: 0,
    },
  ],
}

/** The architecture sub-area's methods. */
export const architectureRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_site_architecture',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's site as a graph, from its latest completed crawl: per page its click depth from the home page (breadth-first over " +
      'internal links; a redirect counts as its target), inlinks and sitemap membership; orphan pages (in the sitemap, linked from ' +
      `nowhere), pages deeper than ${DEEP_PAGE_CLICKS} clicks, and the URL tree as flat rows to draw. Bounded: see each list.`,
    params: z.strictObject({ client_id: ClientId }),
    result: ArchitectureSchema,
    example: { params: { client_id: 34 }, result: exampleResult },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return siteArchitectureOf(ctx.read, client)
    },
  }),
]
