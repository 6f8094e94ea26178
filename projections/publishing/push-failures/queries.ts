import type { Selectable } from 'kysely'
import type { PushFailureCategory } from '../../../domain/publishing/push-failures/categories.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { PushFailuresTable } from './tables.js'

/** A push failure as the API shows it (get_unresolved_push_failures, get_push_failures, resolve_push_failure). */
export interface PushFailureView {
  id: number
  client_id: number
  client_name: string
  operation: string
  category: PushFailureCategory
  error: string
  edit_id: number | null
  target: string | null
  http_status: number | null
  attempts: number | null
  occurred_at: string
  resolved_at: string | null
  resolved_note: string | null
  resolved_auto: boolean | null
}

type Row = Selectable<PushFailuresTable> & { client_name: string | null }

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

export function pushFailureView(row: Row): PushFailureView {
  return {
    id: row.id,
    client_id: row.client_id,
    client_name: row.client_name ?? '',
    operation: row.operation,
    category: row.category,
    error: row.error,
    edit_id: row.edit_id,
    target: row.target,
    http_status: row.http_status,
    attempts: row.attempts,
    occurred_at: row.occurred_at.toISOString(),
    resolved_at: iso(row.resolved_at),
    resolved_note: row.resolved_note,
    resolved_auto: row.resolved_auto,
  }
}

/** Failures with their client's name (the clients read model; a failure outlives nothing there, but left join all the same). */
function withClientName(read: ReadDb) {
  return read
    .selectFrom('push_failures as f')
    .leftJoin('clients as c', 'c.id', 'f.client_id')
    .selectAll('f')
    .select('c.name as client_name')
}

export interface Page {
  readonly limit: number
  readonly offset: number
}

/**
 * Unresolved failures of the organization's clients (null: of every organization), newest first.
 * get_unresolved_push_failures and get_unresolved_push_failures_for_org.
 */
export async function unresolvedPushFailures(read: ReadDb, orgId: number | null, page: Page): Promise<PushFailureView[]> {
  let query = withClientName(read).where('f.resolved_at', 'is', null)
  if (orgId !== null) query = query.where('f.org_id', '=', orgId)
  const rows = await query.orderBy('f.occurred_at', 'desc').orderBy('f.id', 'desc').limit(page.limit).offset(page.offset).execute()
  return rows.map(pushFailureView)
}

/** get_push_failures: the client's failures, newest first; resolved ones only when asked. */
export async function pushFailuresForClient(
  read: ReadDb,
  clientId: number,
  includeResolved: boolean,
  page: Page,
): Promise<PushFailureView[]> {
  let query = withClientName(read).where('f.client_id', '=', clientId)
  if (!includeResolved) query = query.where('f.resolved_at', 'is', null)
  const rows = await query.orderBy('f.occurred_at', 'desc').orderBy('f.id', 'desc').limit(page.limit).offset(page.offset).execute()
  return rows.map(pushFailureView)
}

/**
 * count_unresolved_push_failures and count_unresolved_push_failures_for_org: unresolved failures of the
 * organization (null: of every organization), of one client and of some categories when given.
 */
export async function countUnresolvedPushFailures(
  read: ReadDb,
  filter: { orgId: number | null; clientId?: number | undefined; categories?: readonly PushFailureCategory[] | undefined },
): Promise<number> {
  let query = read
    .selectFrom('push_failures')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('resolved_at', 'is', null)
  if (filter.orgId !== null) query = query.where('org_id', '=', filter.orgId)
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId)
  if (filter.categories !== undefined && filter.categories.length > 0) query = query.where('category', 'in', [...filter.categories])
  const row = await query.executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** One failure, if the caller's organization (null: any) may see it; otherwise not_found, missing or foreign alike. */
export async function visiblePushFailure(read: ReadDb, orgId: number | null, failureId: number): Promise<PushFailureView> {
  let query = withClientName(read).where('f.id', '=', failureId)
  if (orgId !== null) query = query.where('f.org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('push failure', failureId)
  return pushFailureView(row)
}
