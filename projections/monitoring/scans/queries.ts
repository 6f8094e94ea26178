import { sql, type Selectable } from 'kysely'
import type { ScanErrorCode, ScanFrequency } from '../../../domain/monitoring/scans/events.js'
import type { ScanStatus } from '../../../domain/monitoring/scans/site-scan.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { ScanCadencesTable, SiteScansTable } from './tables.js'

export type SiteScanRow = Selectable<SiteScansTable>

/** A scan session as the API shows it (start_site_scan, get_scan_session, get_last_scan_session, …). */
export interface ScanSessionView {
  session_id: number
  client_id: number
  scan_type: string
  trigger: 'manual' | 'cadence'
  status: ScanStatus
  progress: {
    pages_found: number
    pages_fetched: number
    pages_recorded: number
    pages_unchanged: number
    pages_skipped: number
    pages_failed: number
    sitemaps_read: number
  }
  keywords_checked: number
  pages_scanned: number
  attempt: number
  start_url: string | null
  error: { code: ScanErrorCode; message: string } | null
  queued_at: string
  started_at: string | null
  finished_at: string | null
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export function scanSessionView(r: SiteScanRow): ScanSessionView {
  return {
    session_id: r.id,
    client_id: r.client_id,
    scan_type: r.scan_type,
    trigger: r.trigger,
    status: r.status,
    progress: {
      pages_found: r.pages_found,
      pages_fetched: r.pages_fetched,
      pages_recorded: r.pages_recorded,
      pages_unchanged: r.pages_unchanged,
      pages_skipped: r.pages_skipped,
      pages_failed: r.pages_failed,
      sitemaps_read: r.sitemaps_read,
    },
    keywords_checked: r.keywords_checked,
    pages_scanned: r.pages_scanned,
    attempt: r.attempt,
    start_url: r.start_url,
    error: r.error_code === null ? null : { code: r.error_code, message: r.error_message ?? '' },
    queued_at: r.queued_at.toISOString(),
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
  }
}

/** The scan if the caller may see it; otherwise the same not_found as a missing one. */
export async function visibleScan(db: ReadDb, orgId: number | null, scanId: number): Promise<SiteScanRow> {
  let query = db.selectFrom('site_scans').selectAll().where('id', '=', scanId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('scan session', scanId)
  return row
}

/** The client's newest scan (of one type when given), any status; undefined when none. */
export async function lastScanOfClient(db: ReadDb, clientId: number, scanType: string | null): Promise<SiteScanRow | undefined> {
  let query = db.selectFrom('site_scans').selectAll().where('client_id', '=', clientId)
  if (scanType !== null) query = query.where('scan_type', '=', scanType)
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst()
}

export async function scansOfClient(db: ReadDb, clientId: number, page: { limit: number; offset: number }): Promise<SiteScanRow[]> {
  return db
    .selectFrom('site_scans')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

/** The latest completed crawl of the client (its pages in site_scan_pages are the site as last seen whole). */
export async function latestCompletedCrawl(db: ReadDb, clientId: number): Promise<SiteScanRow | undefined> {
  return db
    .selectFrom('site_scans')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('scan_type', '=', 'crawl')
    .where('status', '=', 'completed')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** URLs with a result in the scan (a resumed take does not fetch them again). */
export async function recordedUrlsOfScan(db: ReadDb, scanId: number): Promise<string[]> {
  const rows = await db.selectFrom('site_scan_pages').select('url').where('scan_id', '=', scanId).execute()
  return rows.map((r) => r.url)
}

/**
 * Open service scans a worker may take at `now`: queued ones, and running ones whose lease ran out (the worker
 * stopped), oldest first. The take is decided on the scan's stream; this only finds candidates.
 */
export async function claimableScans(
  db: ReadDb,
  now: Date,
  limit: number,
  exceptIds: readonly number[],
): Promise<{ id: number; client_id: number; org_id: number; scan_type: string }[]> {
  let query = db
    .selectFrom('site_scans')
    .select(['id', 'client_id', 'org_id', 'scan_type'])
    .where('scan_type', 'in', ['crawl', 'render'])
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<=', now)])]))
  if (exceptIds.length > 0) query = query.where(sql<boolean>`not (id = any(${sql.val([...exceptIds])}::bigint[]))`)
  return query.orderBy('id').limit(limit).execute()
}

/** Service scans of the client that ended, newest first (how many failed in a row). */
export async function recentServiceScanStatuses(db: ReadDb, clientId: number, limit: number): Promise<ScanStatus[]> {
  const rows = await db
    .selectFrom('site_scans')
    .select('status')
    .where('client_id', '=', clientId)
    .where('scan_type', 'in', ['crawl', 'render'])
    .where('status', 'in', ['completed', 'failed', 'cancelled'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => r.status)
}

export interface ScanCadenceView {
  client_id: number
  frequency: ScanFrequency
  scan_type: string
  /** null: never set (off is shown). */
  updated_at: string | null
}

export function scanCadenceView(clientId: number, row: Selectable<ScanCadencesTable> | undefined): ScanCadenceView {
  if (!row) return { client_id: clientId, frequency: 'off', scan_type: 'crawl', updated_at: null }
  return { client_id: row.client_id, frequency: row.frequency, scan_type: row.scan_type, updated_at: row.updated_at.toISOString() }
}

export async function scanCadenceOf(db: ReadDb, clientId: number): Promise<ScanCadenceView> {
  return scanCadenceView(clientId, await db.selectFrom('scan_cadences').selectAll().where('client_id', '=', clientId).executeTakeFirst())
}

/**
 * Active clients whose cadence is on, with the date of their latest scan of the cadence's type (null: none):
 * the scheduler's candidates. Whether one is due is decided again on the client's scans stream.
 */
export async function cadencedScanClients(
  db: ReadDb,
): Promise<{ client_id: number; org_id: number; frequency: string; scan_type: string; last_date: string | null }[]> {
  return db
    .selectFrom('scan_cadences as c')
    .innerJoin('clients as cl', 'cl.id', 'c.client_id')
    .select(['c.client_id', 'c.org_id', 'c.frequency', 'c.scan_type'])
    .select((eb) =>
      eb
        .selectFrom('site_scans as s')
        .whereRef('s.client_id', '=', 'c.client_id')
        .whereRef('s.scan_type', '=', 'c.scan_type')
        .select(sql<string>`max(s.date)`.as('d'))
        .as('last_date'),
    )
    .where('c.frequency', '!=', 'off')
    .where('cl.status', '=', 'active')
    .orderBy('c.client_id')
    .execute() as Promise<{ client_id: number; org_id: number; frequency: string; scan_type: string; last_date: string | null }[]>
}
