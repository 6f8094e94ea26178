import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'

/**
 * Search Console's calendar: days as `YYYY-MM-DD`, the data lag, and how far back the API keeps data. Pure
 * date arithmetic on UTC days (the caller passes "today"); Search Console's own days are Pacific time, a
 * difference of at most one day at the edges that the lag already absorbs.
 */

const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

/** A real calendar day as YYYY-MM-DD (2026-02-30 is refused). */
export const GscDate = z
  .string()
  .regex(DATE_PATTERN, 'expected a date as YYYY-MM-DD')
  .refine((text) => toDate(text).toISOString().slice(0, 10) === text, 'not a calendar day')

/** Search Analytics data is final about 2 to 3 days after the day: the default range ends this many days before today. */
export const DATA_LAG_DAYS = 3
/** The latest day a capture may end on, in days before today: a day not final yet is captured as far as it goes. */
export const FRESHEST_DAY_LAG = 2
/** The default capture: the last 28 complete days. */
export const DEFAULT_CAPTURE_DAYS = 28
/** Search Console keeps 16 months of Search Analytics data: nothing earlier can be captured. */
export const RETENTION_MONTHS = 16

const DAY_MS = 24 * 60 * 60 * 1000

function toDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`)
}

/** The UTC day of an instant. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10)
}

export function addDays(day: string, days: number): string {
  return dayOf(new Date(toDate(day).getTime() + days * DAY_MS))
}

/** Days from `start` to `end`, both included (0 when end is before start). */
export function daysInRange(start: string, end: string): number {
  return Math.max(0, Math.round((toDate(end).getTime() - toDate(start).getTime()) / DAY_MS) + 1)
}

/** The same day `months` calendar months earlier (the month's last day when it has fewer days). */
export function monthsBefore(day: string, months: number): string {
  const d = toDate(day)
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay))
  return dayOf(target)
}

export interface DayRange {
  /** YYYY-MM-DD, included. */
  readonly start: string
  /** YYYY-MM-DD, included. */
  readonly end: string
}

/** The default capture range on `today`: the 28 days ending DATA_LAG_DAYS before it. */
export function defaultCaptureRange(today: string): DayRange {
  const end = addDays(today, -DATA_LAG_DAYS)
  return { start: addDays(end, -(DEFAULT_CAPTURE_DAYS - 1)), end }
}

/**
 * The range a capture asked for on `today`, with the defaults filled in: no dates, the last 28 complete
 * days; only an end, the 28 days ending there; only a start, from there to the default end. Refused
 * (validation_failed): a start after the end, an end later than FRESHEST_DAY_LAG days before today, a start
 * earlier than Search Console keeps data (16 months).
 */
export function captureRange(today: string, asked: { start?: string | undefined; end?: string | undefined }): DayRange {
  const fallback = defaultCaptureRange(today)
  const end = asked.end ?? (asked.start === undefined ? fallback.end : maxDay(fallback.end, asked.start))
  const start = asked.start ?? addDays(end, -(DEFAULT_CAPTURE_DAYS - 1))
  const latest = addDays(today, -FRESHEST_DAY_LAG)
  const earliest = monthsBefore(today, RETENTION_MONTHS)
  if (start > end) throw new DomainError('validation_failed', 'start_date is after end_date', `${start} > ${end}`)
  if (end > latest) {
    throw new DomainError(
      'validation_failed',
      `end_date is at most ${FRESHEST_DAY_LAG} days before today: Search Console has no final data for later days`,
      `end_date ${end}; latest ${latest}`,
    )
  }
  if (start < earliest) {
    throw new DomainError(
      'validation_failed',
      `start_date is at most ${RETENTION_MONTHS} months before today: Search Console keeps no older data`,
      `start_date ${start}; earliest ${earliest}`,
    )
  }
  return { start, end }
}

/** The period of equal length just before `range` (what a snapshot compares with). */
export function previousPeriod(range: DayRange): DayRange {
  const days = daysInRange(range.start, range.end)
  const end = addDays(range.start, -1)
  return { start: addDays(end, -(days - 1)), end }
}

/** The longest period a snapshot reads (with its previous period, twice that): Search Console's 16 months. */
export const MAX_SNAPSHOT_DAYS = 490

/** A snapshot's period, checked: start not after end, at most MAX_SNAPSHOT_DAYS days. */
export function snapshotPeriod(start: string, end: string): DayRange {
  if (start > end) throw new DomainError('validation_failed', 'period_start is after period_end', `${start} > ${end}`)
  const days = daysInRange(start, end)
  if (days > MAX_SNAPSHOT_DAYS) {
    throw new DomainError('validation_failed', `A snapshot period is at most ${MAX_SNAPSHOT_DAYS} days`, `${days} days`)
  }
  return { start, end }
}

/** The days of a range not in any of `covered` (sorted, possibly overlapping ranges), as ranges. */
export function uncoveredRanges(range: DayRange, covered: readonly DayRange[]): DayRange[] {
  const gaps: DayRange[] = []
  let next = range.start
  for (const c of [...covered].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (c.end < next) continue
    if (c.start > range.end) break
    if (c.start > next) gaps.push({ start: next, end: minDay(addDays(c.start, -1), range.end) })
    next = maxDay(next, addDays(c.end, 1))
    if (next > range.end) return gaps
  }
  if (next <= range.end) gaps.push({ start: next, end: range.end })
  return gaps
}

const maxDay = (a: string, b: string) => (a > b ? a : b)
const minDay = (a: string, b: string) => (a < b ? a : b)
