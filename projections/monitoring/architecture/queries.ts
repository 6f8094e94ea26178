import { sql } from 'kysely'
import { type ArchitecturePage, type SiteArchitecture, siteArchitecture } from '../../../domain/monitoring/architecture/tree.js'
import { pageUrlKey } from '../../../domain/pages/url.js'
import type { ClientRow } from '../../clients/queries.js'
import type { ReadDb } from '../../tables.js'

/** Where the architecture's pages came from. */
export type ArchitectureBasis = 'crawl' | 'snapshots' | 'none'

export interface SiteArchitectureView extends SiteArchitecture {
  client_id: number
  /** crawl: the latest completed crawl's pages; snapshots: no crawl completed yet, the pages' crawled snapshots; none: neither. */
  basis: ArchitectureBasis
  /** The crawl read (basis crawl), else null. */
  scan_id: number | null
  /** When that crawl finished, else when the newest page state was recorded; null for none. */
  as_of: string | null
  /** More than MAX_ARCHITECTURE_LINKS links: the rest (pages by id) were not read. */
  links_cut: boolean
}

/** Internal links read for one answer at most. */
export const MAX_ARCHITECTURE_LINKS = 250_000

/** The client's latest completed crawl (a render scan has no sitemap and fetches a few pages: not a map). */
async function latestCompletedCrawl(db: ReadDb, clientId: number) {
  return db
    .selectFrom('site_scans')
    .select(['id', 'finished_at'])
    .where('client_id', '=', clientId)
    .where('scan_type', '=', 'crawl')
    .where('status', '=', 'completed')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * get_site_architecture: the latest completed crawl's pages (URLs robots or the page cap kept the crawl from
 * fetching are left out: nothing is known of their links), each with the internal links of its latest page
 * state (an unchanged page keeps those its last recorded snapshot saw), through the pure graph rules. Before
 * any crawl completed, the pages with a crawled snapshot stand in (no sitemap is known then).
 */
export async function siteArchitectureOf(db: ReadDb, client: ClientRow): Promise<SiteArchitectureView> {
  const [crawl, sources] = await Promise.all([
    latestCompletedCrawl(db, client.id),
    db
      .selectFrom('page_link_sources')
      .select(['page_id', 'url', 'final_url', 'status', 'recorded_at'])
      .where('client_id', '=', client.id)
      .execute(),
  ])
  const sourceOf = new Map(sources.map((s) => [s.page_id, s]))
  let pages: ArchitecturePage[]
  let basis: ArchitectureBasis
  let asOf: Date | null
  if (crawl) {
    const rows = await db
      .selectFrom('site_scan_pages')
      .select(['url', 'page_id', 'status', 'in_sitemap'])
      .where('scan_id', '=', crawl.id)
      .where('outcome', '!=', 'skipped')
      .execute()
    pages = rows.map((row) => {
      const source = row.page_id === null ? undefined : sourceOf.get(row.page_id)
      // The page's state says where a fetch of this URL ended; a page found under another URL says nothing here.
      const finalUrl = source && pageUrlKey(source.url) === pageUrlKey(row.url) ? source.final_url : null
      return { url: row.url, page_id: row.page_id, status: row.status, in_sitemap: row.in_sitemap, final_url: finalUrl }
    })
    basis = 'crawl'
    asOf = crawl.finished_at
  } else {
    pages = sources.map((s) => ({ url: s.url, page_id: s.page_id, status: s.status, in_sitemap: false, final_url: s.final_url }))
    basis = sources.length > 0 ? 'snapshots' : 'none'
    asOf = sources.length > 0 ? new Date(Math.max(...sources.map((s) => s.recorded_at.getTime()))) : null
  }
  const pageIds = [...new Set(pages.flatMap((p) => (p.page_id === null ? [] : [p.page_id])))]
  // Bounded: a 10,000-page crawl with a few hundred links a page is millions of rows; past the cap the
  // answer says so (links_cut) and is drawn from the links read.
  const links =
    pageIds.length === 0
      ? []
      : await db
          .selectFrom('page_links')
          .select(['from_url', 'to_url'])
          .where('client_id', '=', client.id)
          .where(sql<boolean>`page_id = any(${pageIds}::bigint[])`)
          .orderBy('page_id')
          .limit(MAX_ARCHITECTURE_LINKS + 1)
          .execute()
  return {
    client_id: client.id,
    basis,
    scan_id: crawl?.id ?? null,
    as_of: asOf === null ? null : asOf.toISOString(),
    links_cut: links.length > MAX_ARCHITECTURE_LINKS,
    ...siteArchitecture({ home_url: client.website_url, pages, links: links.slice(0, MAX_ARCHITECTURE_LINKS) }),
  }
}
