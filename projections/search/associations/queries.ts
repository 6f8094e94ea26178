import { sql } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { keywordView, type KeywordView } from '../../keywords/queries.js'
import type { KeywordStatus } from '../../keywords/tables.js'
import { pageView, type PageView } from '../../pages/queries.js'
import type { ReadDb } from '../../tables.js'

/** A page of a list: rows to return and rows to skip. */
export interface Paging {
  readonly limit: number
  readonly offset: number
}

/** A link as the API shows it: both ids, with the keyword's text and status and the page's URL, title and state. */
export interface AssociationView {
  client_id: number
  keyword_id: number
  keyword: string
  keyword_status: KeywordStatus
  page_id: number
  page_url: string
  page_title: string
  page_active: boolean
  primary: boolean
  associated_at: string
  updated_at: string
}

/** A page linked to a keyword, as the rank checks match a ranking URL against it. */
export interface AssociatedPage {
  page_id: number
  url: string
  title: string
  active: boolean
  primary: boolean
}

/** The links joined with their keyword and page (rows of the same client: a link never joins two clients). */
function linkRows(db: ReadDb) {
  return db
    .selectFrom('keyword_pages as kp')
    .innerJoin('keywords as k', 'k.id', 'kp.keyword_id')
    .innerJoin('pages as p', 'p.id', 'kp.page_id')
    .select([
      'kp.client_id',
      'kp.keyword_id',
      'k.keyword',
      'k.status as keyword_status',
      'kp.page_id',
      'p.url as page_url',
      'p.title as page_title',
      'p.active as page_active',
      'kp.is_primary',
      'kp.associated_at',
      'kp.updated_at',
    ])
}

type LinkRow = Awaited<ReturnType<ReturnType<typeof linkRows>['execute']>>[number]

function associationView(r: LinkRow): AssociationView {
  return {
    client_id: r.client_id,
    keyword_id: r.keyword_id,
    keyword: r.keyword,
    keyword_status: r.keyword_status,
    page_id: r.page_id,
    page_url: r.page_url,
    page_title: r.page_title,
    page_active: r.page_active,
    primary: r.is_primary,
    associated_at: r.associated_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }
}

/** The client's links by keyword id, each keyword's primary first and then the others oldest first. */
export async function associationsOfClient(db: ReadDb, clientId: number, page: Paging): Promise<AssociationView[]> {
  const rows = await linkRows(db)
    .where('kp.client_id', '=', clientId)
    .orderBy('kp.keyword_id')
    .orderBy('kp.is_primary', 'desc')
    .orderBy('kp.associated_at')
    .orderBy('kp.page_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(associationView)
}

/** The keyword's links: the primary first, then the others oldest first. */
export async function associationsOfKeyword(db: ReadDb, keywordId: number): Promise<AssociationView[]> {
  const rows = await linkRows(db)
    .where('kp.keyword_id', '=', keywordId)
    .orderBy('kp.is_primary', 'desc')
    .orderBy('kp.associated_at')
    .orderBy('kp.page_id')
    .execute()
  return rows.map(associationView)
}

/** The page's links, by keyword id. */
export async function associationsOfPage(db: ReadDb, pageId: number): Promise<AssociationView[]> {
  const rows = await linkRows(db).where('kp.page_id', '=', pageId).orderBy('kp.keyword_id').execute()
  return rows.map(associationView)
}

/** One link if it exists and the caller may see it; otherwise not_found, the same for a foreign one. */
export async function visibleAssociation(db: ReadDb, orgId: number | null, keywordId: number, pageId: number): Promise<AssociationView> {
  let query = linkRows(db).where('kp.keyword_id', '=', keywordId).where('kp.page_id', '=', pageId)
  if (orgId !== null) query = query.where('kp.org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('association', `${keywordId}-${pageId}`)
  return associationView(row)
}

/** The client's active keywords linked to no active page, oldest first. */
export async function keywordsWithoutPages(db: ReadDb, clientId: number, page: Paging): Promise<KeywordView[]> {
  const rows = await db
    .selectFrom('keywords as k')
    .selectAll('k')
    .where('k.client_id', '=', clientId)
    .where('k.status', '=', 'active')
    // Linked only to pages taken off the site is as good as unlinked: nothing on the site serves the keyword.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('keyword_pages as kp')
            .innerJoin('pages as p', 'p.id', 'kp.page_id')
            .select(sql`1`.as('one'))
            .whereRef('kp.keyword_id', '=', 'k.id')
            .where('p.active', '=', true),
        ),
      ),
    )
    .orderBy('k.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(keywordView)
}

/** The client's active pages linked to no active keyword, in id order. */
export async function pagesWithoutKeywords(db: ReadDb, clientId: number, page: Paging): Promise<PageView[]> {
  const rows = await db
    .selectFrom('pages as p')
    .selectAll('p')
    .where('p.client_id', '=', clientId)
    .where('p.active', '=', true)
    // Serving only deleted keywords is as good as serving none: no tracked search leads to the page.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('keyword_pages as kp')
            .innerJoin('keywords as k', 'k.id', 'kp.keyword_id')
            .select(sql`1`.as('one'))
            .whereRef('kp.page_id', '=', 'p.id')
            .where('k.status', '=', 'active'),
        ),
      ),
    )
    .orderBy('p.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(pageView)
}

/** The pages linked to each of `keywordIds` (primary first, then oldest first); a keyword without links is absent. */
export async function pagesOfKeywords(db: ReadDb, keywordIds: readonly number[]): Promise<Map<number, AssociatedPage[]>> {
  const found = new Map<number, AssociatedPage[]>()
  if (keywordIds.length === 0) return found
  const rows = await db
    .selectFrom('keyword_pages as kp')
    .innerJoin('pages as p', 'p.id', 'kp.page_id')
    .select(['kp.keyword_id', 'kp.page_id', 'p.url', 'p.title', 'p.active', 'kp.is_primary'])
    .where(sql<boolean>`kp.keyword_id = any(${sql.val([...new Set(keywordIds)])}::bigint[])`)
    .orderBy('kp.keyword_id')
    .orderBy('kp.is_primary', 'desc')
    .orderBy('kp.associated_at')
    .orderBy('kp.page_id')
    .execute()
  for (const r of rows) {
    const pages = found.get(r.keyword_id) ?? []
    pages.push({ page_id: r.page_id, url: r.url, title: r.title, active: r.active, primary: r.is_primary })
    found.set(r.keyword_id, pages)
  }
  return found
}

/**
 * The pages linked to the keyword, primary first, inactive ones included (flagged): a page taken off the site
 * may still rank, and a rank check matching a ranking URL wants to know it is the client's.
 */
export async function pagesOfKeyword(db: ReadDb, keywordId: number): Promise<AssociatedPage[]> {
  return (await pagesOfKeywords(db, [keywordId])).get(keywordId) ?? []
}

/** The keyword's primary page, or null when it is linked to none. */
export async function primaryPageOfKeyword(db: ReadDb, keywordId: number): Promise<AssociatedPage | null> {
  return (await pagesOfKeyword(db, keywordId)).find((p) => p.primary) ?? null
}
