import { sql, type Selectable } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { AeoQueriesTable } from '../tables.js'

export type QuestionRow = Selectable<AeoQueriesTable>

/** A question as the API shows it (get_aeo_queries, get_aeo_query). */
export interface QuestionView {
  id: number
  client_id: number
  prompt: string
  engine: string
  service: string
  location: string
  kind: string
  priority: number
  active: boolean
  source: string
  created_at: string
  updated_at: string
  /** Captures of this question (aeo_captures, every engine and month). */
  capture_count: number
  /** The latest month it was captured in (YYYY-MM), null when never. */
  last_month: string | null
}

/**
 * The question if the caller may see it (orgId null: any organization); otherwise the same not-found
 * whether it is missing, deleted, merged away or another organization's.
 */
export async function visibleQuestion(read: ReadDb, orgId: number | null, queryId: number): Promise<QuestionRow> {
  let query = read.selectFrom('aeo_queries').selectAll().where('id', '=', queryId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('question', queryId)
  return row
}

/** The client's active questions, highest priority first, then oldest. */
export async function activeQuestions(read: ReadDb, clientId: number): Promise<QuestionRow[]> {
  return read
    .selectFrom('aeo_queries')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('active', '=', true)
    .orderBy('priority', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/** Capture counts and last month per question, from the captures read model (owned by the captures part). */
function withCaptureStats(read: ReadDb, scope: { clientId: number } | { queryId: number }) {
  let captures = read
    .selectFrom('aeo_captures')
    .select(['query_id', sql<number>`count(*)::int`.as('capture_count'), sql<string | null>`max(month)`.as('last_month')])
  captures = 'clientId' in scope ? captures.where('client_id', '=', scope.clientId) : captures.where('query_id', '=', scope.queryId)
  const stats = captures.groupBy('query_id').as('c')
  return read
    .selectFrom('aeo_queries as q')
    .leftJoin(stats, 'c.query_id', 'q.id')
    .selectAll('q')
    .select([sql<number>`coalesce(c.capture_count, 0)`.as('capture_count'), 'c.last_month'])
}

function toView(row: QuestionRow & { capture_count: number; last_month: string | null }): QuestionView {
  return {
    id: row.id,
    client_id: row.client_id,
    prompt: row.prompt,
    engine: row.engine,
    service: row.service,
    location: row.location,
    kind: row.kind,
    priority: row.priority,
    active: row.active,
    source: row.source,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    capture_count: row.capture_count,
    last_month: row.last_month ?? null,
  }
}

/** get_aeo_queries: active first, then priority (highest first), then age (oldest first). */
export async function listQuestions(read: ReadDb, clientId: number): Promise<QuestionView[]> {
  const rows = await withCaptureStats(read, { clientId })
    .where('q.client_id', '=', clientId)
    .orderBy('q.active', 'desc')
    .orderBy('q.priority', 'desc')
    .orderBy('q.created_at')
    .orderBy('q.id')
    .execute()
  return rows.map(toView)
}

/** One question with its capture stats, if the caller may see it (else the same not-found as visibleQuestion). */
export async function questionView(read: ReadDb, orgId: number | null, queryId: number): Promise<QuestionView> {
  let query = withCaptureStats(read, { queryId }).where('q.id', '=', queryId)
  if (orgId !== null) query = query.where('q.org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('question', queryId)
  return toView(row)
}

/** Which of the client's questions have at least one capture (so they are deactivated, not deleted). */
export async function capturedQuestionIds(read: ReadDb, clientId: number): Promise<number[]> {
  const rows = await read.selectFrom('aeo_captures').select('query_id').distinct().where('client_id', '=', clientId).execute()
  return rows.map((r) => r.query_id)
}

export async function hasCaptures(read: ReadDb, queryId: number): Promise<boolean> {
  const row = await read.selectFrom('aeo_captures').select('id').where('query_id', '=', queryId).limit(1).executeTakeFirst()
  return row !== undefined
}
