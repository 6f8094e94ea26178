import { sql, type Selectable } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { AeoCapturesTable } from '../tables.js'

/**
 * Reads of aeo_captures, for the captures RPCs and the reports part. Captures are scoped like their
 * client: another organization's capture answers exactly like a missing one.
 */
export type CaptureRow = Selectable<AeoCapturesTable>

/** A capture as listings show it (report_json included, record_json omitted). */
export interface CaptureView {
  id: number
  client_id: number
  org_id: number
  query_id: number
  engine: string
  month: string
  run_id: number | null
  answer_text: string
  citations: { url: string; title?: string }[]
  retrieved: { url: string; title?: string }[]
  model: string
  surface: string
  searched: boolean | null
  analysis_version: number
  report_json: Record<string, unknown>
  record_bytes: number
  record_pruned: boolean
  captured_at: string
}

export function captureView(row: CaptureRow): CaptureView {
  return {
    id: row.id,
    client_id: row.client_id,
    org_id: row.org_id,
    query_id: row.query_id,
    engine: row.engine,
    month: row.month,
    run_id: row.run_id,
    answer_text: row.answer_text,
    citations: row.citations,
    retrieved: row.retrieved,
    model: row.model,
    surface: row.surface,
    searched: row.searched,
    analysis_version: row.analysis_version,
    report_json: row.report_json,
    record_bytes: row.record_bytes,
    record_pruned: row.record_pruned_at !== null,
    captured_at: row.captured_at.toISOString(),
  }
}

/** The capture if the caller may see it (orgId null: any organization); else not_found, same as missing. */
export async function visibleCapture(db: ReadDb, orgId: number | null, captureId: number): Promise<CaptureRow> {
  let query = db.selectFrom('aeo_captures').selectAll().where('id', '=', captureId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('capture', captureId)
  return row
}

export interface CaptureFilter {
  readonly month?: string | undefined
  readonly queryId?: number | undefined
  /** Newest first, at most this many. */
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

/** A client's captures, newest first (by capture id), optionally of one month and/or question. */
export async function capturesForClient(db: ReadDb, clientId: number, filter: CaptureFilter = {}): Promise<CaptureRow[]> {
  let query = db.selectFrom('aeo_captures').selectAll().where('client_id', '=', clientId)
  if (filter.month !== undefined) query = query.where('month', '=', filter.month)
  if (filter.queryId !== undefined) query = query.where('query_id', '=', filter.queryId)
  query = query.orderBy('id', 'desc')
  if (filter.limit !== undefined) query = query.limit(filter.limit)
  if (filter.offset) query = query.offset(filter.offset)
  return query.execute()
}

/** Distinct months with captures, ascending. */
export async function captureMonths(db: ReadDb, clientId: number): Promise<string[]> {
  const rows = await db.selectFrom('aeo_captures').select('month').distinct().where('client_id', '=', clientId).orderBy('month').execute()
  return rows.map((r) => r.month)
}

/** Capture ids of a client, ascending (re-analysis goes over every one). */
export async function captureIdsForClient(db: ReadDb, clientId: number): Promise<number[]> {
  const rows = await db.selectFrom('aeo_captures').select('id').where('client_id', '=', clientId).orderBy('id').execute()
  return rows.map((r) => r.id)
}

/** Captures per question of a client, with the latest month: for question listings. */
export async function captureCountsByQuery(db: ReadDb, clientId: number): Promise<Map<number, { count: number; lastMonth: string }>> {
  const rows = await db
    .selectFrom('aeo_captures')
    .select(['query_id', sql<number>`count(*)::int`.as('n'), sql<string>`max(month)`.as('last_month')])
    .where('client_id', '=', clientId)
    .groupBy('query_id')
    .execute()
  return new Map(rows.map((r) => [r.query_id, { count: r.n, lastMonth: r.last_month }]))
}
