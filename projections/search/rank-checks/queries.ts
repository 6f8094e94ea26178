import { sql, type Selectable } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { RankCheckErrorCode, RankFrequency, RankProviderName } from '../../../domain/search/rank-checks/events.js'
import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import type { ReadDb } from '../../tables.js'
import type { FailedRankTask, RankCadencesTable, RankChecksTable, RankCheckStatus } from './tables.js'

export type RankCheckRow = Selectable<RankChecksTable>

/** A page of a list: rows to return and rows to skip. */
export interface Paging {
  readonly limit: number
  readonly offset: number
}

/** A cadence as the API shows it (get_rank_cadence, set_rank_cadence). */
export interface RankCadenceView {
  client_id: number
  frequency: RankFrequency
  devices: RankDevice[]
  /** null: never set (the defaults are shown). */
  updated_at: string | null
}

/** A check as the API shows it (get_rank_check, get_rank_checks, run_rank_check). */
export interface RankCheckView {
  id: number
  client_id: number
  date: string
  trigger: 'manual' | 'cadence'
  status: RankCheckStatus
  provider: RankProviderName | null
  devices: RankDevice[]
  keyword_count: number | null
  location_count: number | null
  tasks_total: number | null
  tasks_done: number
  tasks_failed: number
  provider_calls: number
  retries: number
  attempt: number
  error: { code: RankCheckErrorCode; message: string } | null
  failed_tasks: FailedRankTask[]
  queued_at: string
  started_at: string | null
  finished_at: string | null
  lease_expires_at: string | null
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export function rankCheckView(r: RankCheckRow): RankCheckView {
  return {
    id: r.id,
    client_id: r.client_id,
    date: r.date,
    trigger: r.trigger,
    status: r.status,
    provider: r.provider,
    devices: r.devices,
    keyword_count: r.keyword_count,
    location_count: r.location_count,
    tasks_total: r.tasks_total,
    tasks_done: r.tasks_done,
    tasks_failed: r.tasks_failed,
    provider_calls: r.provider_calls,
    retries: r.retries,
    attempt: r.attempt,
    error: r.error_code === null ? null : { code: r.error_code, message: r.error_message ?? '' },
    failed_tasks: r.failed_tasks,
    queued_at: r.queued_at.toISOString(),
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    lease_expires_at: iso(r.lease_expires_at),
  }
}

export function rankCadenceView(clientId: number, row: Selectable<RankCadencesTable> | undefined): RankCadenceView {
  if (!row) return { client_id: clientId, frequency: 'off', devices: ['desktop', 'mobile'], updated_at: null }
  return { client_id: row.client_id, frequency: row.frequency, devices: row.devices, updated_at: row.updated_at.toISOString() }
}

export async function rankCadenceOf(db: ReadDb, clientId: number): Promise<RankCadenceView> {
  return rankCadenceView(clientId, await db.selectFrom('rank_cadences').selectAll().where('client_id', '=', clientId).executeTakeFirst())
}

/** The check if the caller may see it; otherwise the same not_found as a missing one. */
export async function visibleRankCheck(db: ReadDb, orgId: number | null, checkId: number): Promise<RankCheckRow> {
  let query = db.selectFrom('rank_checks').selectAll().where('id', '=', checkId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('rank check', checkId)
  return row
}

/** The client's checks, newest first. */
export async function rankChecksOfClient(db: ReadDb, clientId: number, page: Paging): Promise<RankCheckView[]> {
  const rows = await db
    .selectFrom('rank_checks')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(rankCheckView)
}

/**
 * Open checks a worker may take at `now`: queued ones, and running ones whose lease ran out (the worker
 * stopped), oldest first. The runner decides each take on the client's stream; this only finds candidates.
 */
export async function claimableRankChecks(
  db: ReadDb,
  now: Date,
  limit: number,
  exceptIds: readonly number[],
): Promise<{ id: number; client_id: number; org_id: number; date: string; status: RankCheckStatus }[]> {
  let query = db
    .selectFrom('rank_checks')
    .select(['id', 'client_id', 'org_id', 'date', 'status'])
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<=', now)])]))
  if (exceptIds.length > 0) query = query.where(sql<boolean>`not (id = any(${sql.val([...exceptIds])}::bigint[]))`)
  return query.orderBy('id').limit(limit).execute()
}

/**
 * Clients of active status whose cadence is on, with the date of their latest check (null: none yet): the
 * scheduler's candidates. Whether one is due is decided against the client's stream when queueing.
 */
export async function cadencedClients(
  db: ReadDb,
): Promise<{ client_id: number; org_id: number; frequency: string; last_date: string | null }[]> {
  return db
    .selectFrom('rank_cadences as c')
    .innerJoin('clients as cl', 'cl.id', 'c.client_id')
    .select(['c.client_id', 'c.org_id', 'c.frequency'])
    .select((eb) =>
      eb
        .selectFrom('rank_checks as k')
        .whereRef('k.client_id', '=', 'c.client_id')
        .select(sql<string>`max(k.date)`.as('d'))
        .as('last_date'),
    )
    .where('c.frequency', '!=', 'off')
    .where('cl.status', '=', 'active')
    .orderBy('c.client_id')
    .execute() as Promise<{ client_id: number; org_id: number; frequency: string; last_date: string | null }[]>
}
