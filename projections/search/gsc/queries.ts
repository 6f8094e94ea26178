import { sql, type Selectable } from 'kysely'
import { addDays, daysInRange, previousPeriod, uncoveredRanges, type DayRange } from '../../../domain/search/gsc/dates.js'
import { metricsOf, type GscMetrics } from '../../../domain/search/gsc/metrics.js'
import type { GscAuthType } from '../../../domain/search/gsc/credentials.js'
import type { GscCadence, GscErrorCode } from '../../../domain/search/gsc/events.js'
import type { GscPropertyType } from '../../../domain/search/gsc/property.js'

type GscCaptureTrigger = 'manual' | 'cadence'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { GscCaptureRowStatus, GscCapturesTable, GscPropertiesTable } from './tables.js'

/** A page of a list (the registry's limit and offset). */
export interface Page {
  readonly limit: number
  readonly offset: number
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

/** The client's connection as get_gsc_property shows it: never the credentials, only their kind and the service account's address. */
export interface GscPropertyView {
  client_id: number
  property: string
  property_type: GscPropertyType
  auth_type: GscAuthType
  service_account_email: string | null
  cadence: GscCadence
  connected_at: string
  updated_at: string
}

export function gscPropertyView(row: Selectable<GscPropertiesTable>): GscPropertyView {
  return {
    client_id: row.client_id,
    property: row.property,
    property_type: row.property_type as GscPropertyType,
    auth_type: row.auth_type as GscAuthType,
    service_account_email: row.service_account_email,
    cadence: row.cadence as GscCadence,
    connected_at: row.connected_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The client's connected property; undefined when it has none (never set, or removed). */
export async function connectedProperty(read: ReadDb, clientId: number): Promise<Selectable<GscPropertiesTable> | undefined> {
  return read
    .selectFrom('gsc_properties')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('status', '=', 'connected')
    .executeTakeFirst()
}

/** A capture as the API shows it (run_gsc_capture, list_gsc_keyword_captures, get_gsc_capture). */
export interface GscCaptureView {
  id: number
  client_id: number
  property: string
  start_date: string
  end_date: string
  trigger: GscCaptureTrigger
  status: GscCaptureRowStatus
  attempts: number
  days: number
  days_recorded: number
  row_count: number
  error: { code: GscErrorCode; message: string } | null
  queued_at: string
  started_at: string | null
  next_attempt_at: string | null
  finished_at: string | null
}

type CaptureRow = Omit<Selectable<GscCapturesTable>, 'start_date' | 'end_date'> & { start_date: string; end_date: string }

function captureView(row: CaptureRow): GscCaptureView {
  return {
    id: row.id,
    client_id: row.client_id,
    property: row.property,
    start_date: row.start_date,
    end_date: row.end_date,
    trigger: row.trigger as GscCaptureTrigger,
    status: row.status,
    attempts: row.attempts,
    days: daysInRange(row.start_date, row.end_date),
    days_recorded: row.days_recorded,
    row_count: row.row_count,
    error: row.error_code === null ? null : { code: row.error_code as GscErrorCode, message: row.error_message ?? '' },
    queued_at: row.queued_at.toISOString(),
    started_at: iso(row.started_at),
    next_attempt_at: iso(row.next_attempt_at),
    finished_at: iso(row.finished_at),
  }
}

/** gsc_captures with its days as YYYY-MM-DD text (pg would read a date as a local-time Date). */
function captures(read: ReadDb) {
  return read
    .selectFrom('gsc_captures')
    .selectAll()
    .select([sql<string>`start_date::text`.as('start_date'), sql<string>`end_date::text`.as('end_date')])
}

/** The capture if the caller may see it; otherwise the same not-found as a missing one. */
export async function visibleGscCapture(read: ReadDb, orgId: number | null, captureId: number): Promise<GscCaptureView> {
  let query = captures(read).where('id', '=', captureId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('gsc capture', captureId)
  return captureView(row)
}

/** A client's captures, newest first. */
export async function capturesOfClient(read: ReadDb, clientId: number, page: Page): Promise<GscCaptureView[]> {
  const rows = await captures(read).where('client_id', '=', clientId).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()
  return rows.map(captureView)
}

/** The client's latest completed capture (before `beforeId` when given); null when there is none. */
export async function lastCompletedCapture(read: ReadDb, clientId: number, beforeId: number | undefined): Promise<GscCaptureView | null> {
  let query = captures(read).where('client_id', '=', clientId).where('status', '=', 'completed')
  if (beforeId !== undefined) query = query.where('id', '<', beforeId)
  const row = await query.orderBy('id', 'desc').limit(1).executeTakeFirst()
  return row ? captureView(row) : null
}

/** One query of a capture, over every day and page of it (get_gsc_capture_keywords). */
export interface GscCaptureKeyword extends GscMetrics {
  query: string
  /** Pages that showed for it. */
  pages: number
  /** The page with the most clicks for it (then impressions, then the URL's order). */
  top_page: string
}

/** A capture's queries, most clicks first (then impressions, then the query's order). */
export async function captureKeywords(read: ReadDb, captureId: number, page: Page): Promise<GscCaptureKeyword[]> {
  const totals = await read
    .selectFrom('gsc_capture_rows')
    .select((eb) => [
      'query',
      eb.fn.sum<number>('clicks').as('clicks'),
      eb.fn.sum<number>('impressions').as('impressions'),
      sql<number>`sum(position * impressions)`.as('weighted_position'),
      sql<number>`count(distinct page)::int`.as('pages'),
    ])
    .where('capture_id', '=', captureId)
    .groupBy('query')
    .orderBy('clicks', 'desc')
    .orderBy('impressions', 'desc')
    .orderBy('query')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  if (totals.length === 0) return []
  const tops = await read
    .selectFrom((qb) =>
      qb
        .selectFrom('gsc_capture_rows')
        .select((eb) => ['query', 'page', eb.fn.sum<number>('clicks').as('c'), eb.fn.sum<number>('impressions').as('i')])
        .where('capture_id', '=', captureId)
        .where('query', '=', sql<string>`any(${totals.map((t) => t.query)}::text[])`)
        .groupBy(['query', 'page'])
        .as('per_page'),
    )
    .distinctOn('query')
    .select(['query', 'page'])
    .orderBy('query')
    .orderBy('c', 'desc')
    .orderBy('i', 'desc')
    .orderBy('page')
    .execute()
  const topPage = new Map(tops.map((t) => [t.query, t.page]))
  return totals.map((t) => ({
    query: t.query,
    ...metricsOf({ clicks: Number(t.clicks), impressions: Number(t.impressions), weighted_position: Number(t.weighted_position) }),
    pages: t.pages,
    top_page: topPage.get(t.query) ?? '',
  }))
}

export type SnapshotLevel = 'site' | 'page' | 'query'

/** Which days of a period the captured rows cover. */
export interface GscCoverage {
  start: string
  end: string
  days: number
  /** Days a completed capture covers. */
  covered_days: number
  /** Days no completed capture covers, as ranges: their clicks and impressions are not in the numbers. */
  uncovered: DayRange[]
  /** The completed captures whose rows the numbers come from. */
  capture_ids: number[]
}

export interface GscSnapshotRow {
  /** The page URL (level page) or the query (level query). */
  key: string
  current: GscMetrics
  /** The same key over the previous period; null when it had no impressions then. */
  previous: GscMetrics | null
}

export interface GscSnapshot {
  client_id: number
  level: SnapshotLevel
  period: GscCoverage
  previous_period: GscCoverage
  totals: { current: GscMetrics; previous: GscMetrics }
  rows: GscSnapshotRow[]
}

/** A run of days read from one capture. */
interface Segment {
  readonly captureId: number
  readonly start: string
  readonly end: string
}

/**
 * Which capture each day of `range` is read from: the latest completed capture (highest id) that covers
 * it, so a later capture of the same days (fresher data, a re-run after a fix) replaces an earlier one
 * and overlapping captures never count a day twice.
 */
function segmentsOf(range: DayRange, completed: readonly { id: number; start_date: string; end_date: string }[]): Segment[] {
  const segments: Segment[] = []
  for (let day = range.start; day <= range.end; day = addDays(day, 1)) {
    let best: number | null = null
    for (const c of completed) if (c.start_date <= day && day <= c.end_date && (best === null || c.id > best)) best = c.id
    if (best === null) continue
    const last = segments[segments.length - 1]
    if (last && last.captureId === best && addDays(last.end, 1) === day) segments[segments.length - 1] = { ...last, end: day }
    else segments.push({ captureId: best, start: day, end: day })
  }
  return segments
}

function coverageOf(range: DayRange, segments: readonly Segment[]): GscCoverage {
  const covered = segments.map((s) => ({ start: s.start, end: s.end }))
  return {
    start: range.start,
    end: range.end,
    days: daysInRange(range.start, range.end),
    covered_days: segments.reduce((n, s) => n + daysInRange(s.start, s.end), 0),
    uncovered: uncoveredRanges(range, covered),
    capture_ids: [...new Set(segments.map((s) => s.captureId))].sort((a, b) => a - b),
  }
}

const EMPTY: GscMetrics = metricsOf({ clicks: 0, impressions: 0, weighted_position: 0 })

/**
 * get_gsc_snapshot: clicks, impressions, CTR and impression-weighted position over a period, for the whole
 * site, per page or per query, with the previous period of equal length beside it. Each day is read from
 * the latest completed capture covering it; days no capture covers count for nothing and are named in
 * `uncovered`. Rows (levels page and query) are the period's keys with the most clicks, then impressions.
 */
export async function gscSnapshot(
  read: ReadDb,
  clientId: number,
  period: DayRange,
  level: SnapshotLevel,
  limit: number,
): Promise<GscSnapshot> {
  const previous = previousPeriod(period)
  const completed = await read
    .selectFrom('gsc_captures')
    .select(['id', sql<string>`start_date::text`.as('start_date'), sql<string>`end_date::text`.as('end_date')])
    .where('client_id', '=', clientId)
    .where('status', '=', 'completed')
    .where('start_date', '<=', period.end)
    .where('end_date', '>=', previous.start)
    .execute()
  const current = segmentsOf(period, completed)
  const before = segmentsOf(previous, completed)
  const rowsIn = (segments: readonly Segment[]) =>
    read
      .selectFrom('gsc_capture_rows')
      .where('client_id', '=', clientId)
      .where((eb) =>
        eb.or(segments.map((s) => eb.and([eb('capture_id', '=', s.captureId), eb('date', '>=', s.start), eb('date', '<=', s.end)]))),
      )
  const sums = [
    sql<number>`coalesce(sum(clicks), 0)`.as('clicks'),
    sql<number>`coalesce(sum(impressions), 0)`.as('impressions'),
    sql<number>`coalesce(sum(position * impressions), 0)`.as('weighted_position'),
  ] as const
  const toMetrics = (r: { clicks: number; impressions: number; weighted_position: number }) =>
    metricsOf({ clicks: Number(r.clicks), impressions: Number(r.impressions), weighted_position: Number(r.weighted_position) })
  const total = async (segments: readonly Segment[]) =>
    segments.length === 0
      ? EMPTY
      : toMetrics(
          await rowsIn(segments)
            .select([...sums])
            .executeTakeFirstOrThrow(),
        )
  const [currentTotal, previousTotal] = await Promise.all([total(current), total(before)])
  let rows: GscSnapshotRow[] = []
  if (level !== 'site' && current.length > 0) {
    const key = level === 'page' ? 'page' : 'query'
    const top = await rowsIn(current)
      .select([sql<string>`${sql.ref(key)}`.as('key'), ...sums])
      .groupBy(key)
      .orderBy('clicks', 'desc')
      .orderBy('impressions', 'desc')
      .orderBy('key')
      .limit(limit)
      .execute()
    const keys = top.map((r) => r.key)
    const earlier =
      before.length === 0 || keys.length === 0
        ? []
        : await rowsIn(before)
            .where(sql.ref(key), '=', sql<string>`any(${keys}::text[])`)
            .select([sql<string>`${sql.ref(key)}`.as('key'), ...sums])
            .groupBy(key)
            .execute()
    const previousByKey = new Map(earlier.map((r) => [r.key, toMetrics(r)]))
    rows = top.map((r) => ({ key: r.key, current: toMetrics(r), previous: previousByKey.get(r.key) ?? null }))
  }
  return {
    client_id: clientId,
    level,
    period: coverageOf(period, current),
    previous_period: coverageOf(previous, before),
    totals: { current: currentTotal, previous: previousTotal },
    rows,
  }
}

/** Captures the worker should take up now: queued, running (a worker stopped mid-way) or due to retry; oldest first. */
export async function dueCaptures(
  read: ReadDb,
  now: Date,
  limit: number,
): Promise<{ id: number; client_id: number; org_id: number; property: string; start_date: string; end_date: string }[]> {
  return read
    .selectFrom('gsc_captures')
    .select([
      'id',
      'client_id',
      'org_id',
      'property',
      sql<string>`start_date::text`.as('start_date'),
      sql<string>`end_date::text`.as('end_date'),
    ])
    .where((eb) =>
      eb.or([eb('status', 'in', ['queued', 'running']), eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '<=', now)])]),
    )
    .orderBy('id')
    .limit(limit)
    .execute()
}

/**
 * Active clients whose property has the weekly cadence, no open capture, and no capture ending on or after
 * `endedBefore`: those the weekly cadence may want a capture for (the property's stream decides).
 */
export async function cadenceCandidates(read: ReadDb, endedBefore: string): Promise<{ client_id: number; org_id: number }[]> {
  return read
    .selectFrom('gsc_properties as p')
    .innerJoin('clients', 'clients.id', 'p.client_id')
    .select(['p.client_id', 'p.org_id'])
    .where('p.status', '=', 'connected')
    .where('p.cadence', '=', 'weekly')
    .where('clients.status', '=', 'active')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('gsc_captures as c')
            .select('c.id')
            .whereRef('c.client_id', '=', 'p.client_id')
            .where((eb) => eb.or([eb('c.status', 'in', ['queued', 'running', 'retrying']), eb('c.end_date', '>=', endedBefore)])),
        ),
      ),
    )
    .orderBy('p.client_id')
    .execute()
}
