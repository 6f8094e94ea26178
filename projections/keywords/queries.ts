import type { Selectable } from 'kysely'
import { NotFoundError } from '../../domain/shared/errors.js'
import type { ReadDb } from '../tables.js'
import type { KeywordsTable, KeywordStatus } from './tables.js'

export type KeywordRow = Selectable<KeywordsTable>

/** A page of a list (the registry's limit and offset). */
export interface Page {
  readonly limit: number
  readonly offset: number
}

/** A keyword as the API shows it (get_keyword, get_keywords_for_client). */
export interface KeywordView {
  id: number
  client_id: number
  keyword: string
  source: string
  service: string
  location: string
  status: KeywordStatus
  created_at: string
  updated_at: string
  deleted_at: string | null
}

export function keywordView(row: KeywordRow): KeywordView {
  return {
    id: row.id,
    client_id: row.client_id,
    keyword: row.keyword,
    source: row.source,
    service: row.service,
    location: row.location,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    deleted_at: row.deleted_at === null ? null : row.deleted_at.toISOString(),
  }
}

/** The keyword (active or deleted) if the caller may see it; otherwise the same not-found as a missing one. */
export async function visibleKeyword(read: ReadDb, orgId: number | null, keywordId: number): Promise<KeywordRow> {
  let query = read.selectFrom('keywords').selectAll().where('id', '=', keywordId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('keyword', keywordId)
  return row
}

/** A client's keywords, oldest first (the order they were added); active only unless asked. */
export async function keywordsOfClient(read: ReadDb, clientId: number, activeOnly: boolean, page: Page): Promise<KeywordView[]> {
  let query = read.selectFrom('keywords').selectAll().where('client_id', '=', clientId)
  if (activeOnly) query = query.where('status', '=', 'active')
  const rows = await query.orderBy('id').limit(page.limit).offset(page.offset).execute()
  return rows.map(keywordView)
}

/** Ids of the active keywords whose text normalizes to `key`, across the organization's clients (null: every organization). */
export async function keywordIdsByKey(read: ReadDb, orgId: number | null, key: string): Promise<number[]> {
  let query = read.selectFrom('keywords').select('id').where('keyword_key', '=', key).where('status', '=', 'active')
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const rows = await query.orderBy('id').execute()
  return rows.map((r) => r.id)
}
