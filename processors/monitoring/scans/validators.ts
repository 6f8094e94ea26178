import { sql } from 'kysely'
import type { ReadDb } from '../../../projections/tables.js'
import type { CrawlValidators } from './crawler/crawl.js'

/**
 * Per page URL, the ETag and Last-Modified its latest crawl snapshot kept: sent as If-None-Match /
 * If-Modified-Since, so a server that supports them answers 304 and nothing is downloaded or parsed again.
 * Pages without either are left out (an unconditional fetch).
 */
export async function validatorsOf(db: ReadDb, pages: readonly { id: number; url: string }[]): Promise<Map<string, CrawlValidators>> {
  const out = new Map<string, CrawlValidators>()
  if (pages.length === 0) return out
  const rows = await db
    .selectFrom('page_snapshots')
    .select(['page_id', 'etag', 'last_modified'])
    .distinctOn('page_id')
    .where(sql<boolean>`page_id = any(${sql.val(pages.map((p) => p.id))}::bigint[])`)
    .where('source', '=', 'crawl')
    .orderBy('page_id')
    .orderBy('id', 'desc')
    .execute()
  const urlOf = new Map(pages.map((p) => [p.id, p.url]))
  for (const r of rows) {
    const url = urlOf.get(r.page_id)
    if (url !== undefined && (r.etag !== null || r.last_modified !== null)) out.set(url, { etag: r.etag, lastModified: r.last_modified })
  }
  return out
}
