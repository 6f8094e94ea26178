import { sql } from 'kysely'
import type { PageState } from '../../../domain/monitoring/page-state.js'
import { extractiveSummary } from '../../../domain/monitoring/snapshots/summary.js'
import { pageIndex } from '../../../domain/pages/page-set.js'
import { pagesForClient, pageStateOf, type PageRow, type SnapshotRow } from '../../pages/queries.js'
import type { ReadDb } from '../../tables.js'

/**
 * The monitoring reads of page_snapshots (the pages area's table: every snapshot, whatever its source). Days are
 * UTC days of when a snapshot was recorded. A "monitored" snapshot is a crawl or render one: it carries a state.
 */

const utcDay = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`

/** The UTC days the client has any snapshot on, newest first. */
export async function snapshotDates(db: ReadDb, clientId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('page_snapshots')
    .select(utcDay.as('day'))
    .where('client_id', '=', clientId)
    .groupBy(utcDay)
    .orderBy(utcDay, 'desc')
    .execute()
  return rows.map((r) => r.day)
}

export interface FirstSnapshot {
  page_id: number
  url: string
  first_snapshot_id: number
  first_snapshot_date: string
}

/** Per page of the client that has a snapshot: its first snapshot and that day, in page id order. */
export async function firstSnapshots(db: ReadDb, clientId: number): Promise<FirstSnapshot[]> {
  const rows = await db
    .selectFrom('page_snapshots as s')
    .innerJoin('pages as p', 'p.id', 's.page_id')
    .distinctOn('s.page_id')
    .select(['s.page_id', 'p.url', 's.id', sql<string>`to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day')])
    .where('s.client_id', '=', clientId)
    .orderBy('s.page_id')
    .orderBy('s.id')
    .execute()
  return rows.map((r) => ({ page_id: r.page_id, url: r.url, first_snapshot_id: r.id, first_snapshot_date: r.day }))
}

/** The page's snapshot before its newest one, or undefined when it has fewer than two. */
export function previousSnapshot(db: ReadDb, pageId: number): Promise<SnapshotRow | undefined> {
  return db
    .selectFrom('page_snapshots')
    .selectAll()
    .where('page_id', '=', pageId)
    .orderBy('id', 'desc')
    .offset(1)
    .limit(1)
    .executeTakeFirst()
}

/** The page's newest snapshot recorded on or before the UTC day `day` (YYYY-MM-DD), or undefined. */
export function snapshotOnOrBefore(db: ReadDb, pageId: number, day: string): Promise<SnapshotRow | undefined> {
  const dayAfter = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000)
  return db
    .selectFrom('page_snapshots')
    .selectAll()
    .where('page_id', '=', pageId)
    .where('created_at', '<', dayAfter)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The page's newest monitored snapshot (crawl or render), or undefined when no scan recorded it yet. */
export function latestMonitoredSnapshot(db: ReadDb, pageId: number): Promise<SnapshotRow | undefined> {
  return db
    .selectFrom('page_snapshots')
    .selectAll()
    .where('page_id', '=', pageId)
    .where('state', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The client's page at `url`, compared as add_page compares URLs (a site-path page matches the URL's path too). */
export async function clientPageByUrl(db: ReadDb, clientId: number, url: string): Promise<PageRow | undefined> {
  const rows = await pagesForClient(db, clientId, false)
  const find = pageIndex({ clientId, pages: rows.map((r) => ({ ...r, wpPostId: r.wp_post_id })) })
  const found = find(url)
  return found === undefined ? undefined : rows.find((r) => r.id === found.id)
}

/** What get_latest_meta_for_page_url answers: the head of the page as its newest monitored snapshot saw it. */
export interface PageMeta {
  page_id: number
  url: string
  snapshot_id: number
  source: string
  recorded_at: string
  status: number
  final_url: string
  title: string | null
  meta_description: string | null
  canonical: string | null
  robots: string | null
  noindex: boolean
  h1: string[]
}

const h1Of = (state: Pick<PageState, 'headings'>) => state.headings.filter((h) => h.level === 1).map((h) => h.text)

export function pageMetaOf(page: PageRow, row: SnapshotRow): PageMeta {
  const state = pageStateOf(row)!
  return {
    page_id: page.id,
    url: page.url,
    snapshot_id: row.id,
    source: row.source,
    recorded_at: row.created_at.toISOString(),
    status: state.status,
    final_url: state.final_url,
    title: state.title,
    meta_description: state.meta_description,
    canonical: state.canonical,
    robots: state.robots,
    noindex: state.noindex,
    h1: h1Of(state),
  }
}

/** get_latest_page_summaries: per active page, from its newest monitored snapshot (null fields when none yet). */
export interface PageSummary {
  page_id: number
  url: string
  snapshot_id: number | null
  recorded_at: string | null
  status: number | null
  title: string | null
  meta_description: string | null
  h1: string[]
  word_count: number | null
  summary: string | null
}

/** The client's active pages in id order, each with its newest monitored snapshot's summary. */
export async function latestPageSummaries(db: ReadDb, clientId: number): Promise<PageSummary[]> {
  const pages = await pagesForClient(db, clientId, true)
  if (pages.length === 0) return []
  const latest = await db
    .selectFrom('page_snapshots')
    .distinctOn('page_id')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('state', 'is not', null)
    .orderBy('page_id')
    .orderBy('id', 'desc')
    .execute()
  const byPage = new Map(latest.map((r) => [r.page_id, r]))
  return pages.map((page) => {
    const row = byPage.get(page.id)
    const state = row === undefined ? null : pageStateOf(row)
    if (row === undefined || state === null) {
      return {
        page_id: page.id,
        url: page.url,
        snapshot_id: null,
        recorded_at: null,
        status: null,
        title: null,
        meta_description: null,
        h1: [],
        word_count: null,
        summary: null,
      }
    }
    return {
      page_id: page.id,
      url: page.url,
      snapshot_id: row.id,
      recorded_at: row.created_at.toISOString(),
      status: state.status,
      title: state.title,
      meta_description: state.meta_description,
      h1: h1Of(state),
      word_count: state.word_count,
      summary: extractiveSummary(state.main_text),
    }
  })
}

/**
 * The conditional-request validators of the client's pages (the scan runner sends them next time): per page
 * URL, the ETag and Last-Modified of its newest crawl snapshot, when it had either.
 */
export async function crawlValidators(
  db: ReadDb,
  clientId: number,
): Promise<Map<string, { pageId: number; etag: string | null; lastModified: string | null }>> {
  const rows = await db
    .selectFrom('page_snapshots as s')
    .innerJoin('pages as p', 'p.id', 's.page_id')
    .distinctOn('s.page_id')
    .select(['s.page_id', 'p.url', 's.etag', 's.last_modified'])
    .where('s.client_id', '=', clientId)
    .where('s.source', '=', 'crawl')
    .orderBy('s.page_id')
    .orderBy('s.id', 'desc')
    .execute()
  return new Map(
    rows
      .filter((r) => r.etag !== null || r.last_modified !== null)
      .map((r) => [r.url, { pageId: r.page_id, etag: r.etag, lastModified: r.last_modified }]),
  )
}
