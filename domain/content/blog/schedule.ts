import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'
import { CalendarDate } from './topics.js'

/** The days of the week, in the order a week runs (Monday first, ISO 8601). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export const Weekday = z.enum(WEEKDAYS)
export type Weekday = z.infer<typeof Weekday>

export const BLOG_POSTS_PER_WEEK_MAX = 7
/** The longest range publishingSlots answers for at once. */
export const BLOG_SLOTS_RANGE_MAX_DAYS = 366

/** `HH:MM`, 24-hour. */
export const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time of day as HH:MM (24-hour)')

/** The IANA name Intl knows the zone by (its canonical spelling), or null when Intl does not know it. */
export function canonicalTimeZone(name: string): string | null {
  if (name.trim() === '' || name.length > 64) return null
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

export const TimeZone = z
  .string()
  .max(64)
  .refine((value) => canonicalTimeZone(value) !== null, 'expected an IANA time zone such as America/Chicago or UTC')

/** A client's publishing schedule, as set_blog_schedule records it. */
export interface BlogSchedule {
  readonly postsPerWeek: number
  /** The days that may carry a post, in week order, no repeats. */
  readonly days: readonly Weekday[]
  /** Local time of day in `timezone`, HH:MM. */
  readonly time: string
  readonly timezone: string
  readonly active: boolean
  /** The first local date a post may go out (YYYY-MM-DD); null: no start limit. */
  readonly startDate: string | null
}

function invalid(detail: string): never {
  throw new DomainError('validation_failed', 'The blog schedule is invalid', detail)
}

/**
 * A schedule as given, checked and put in its one form (days in week order, the zone's canonical name), or
 * validation_failed naming the field.
 */
export function normalizeSchedule(input: BlogSchedule): BlogSchedule {
  if (!Number.isInteger(input.postsPerWeek) || input.postsPerWeek < 1 || input.postsPerWeek > BLOG_POSTS_PER_WEEK_MAX) {
    invalid(`posts_per_week: must be a whole number from 1 to ${BLOG_POSTS_PER_WEEK_MAX}`)
  }
  const days = WEEKDAYS.filter((d) => input.days.includes(d))
  if (days.length !== input.days.length) invalid('days: each day at most once, each one of mon, tue, wed, thu, fri, sat, sun')
  if (days.length < input.postsPerWeek) {
    invalid(`days: ${input.postsPerWeek} posts a week need at least ${input.postsPerWeek} days, ${days.length} given`)
  }
  if (!TimeOfDay.safeParse(input.time).success) invalid('time: expected a time of day as HH:MM (24-hour)')
  const timezone = canonicalTimeZone(input.timezone)
  if (timezone === null) invalid(`timezone: ${JSON.stringify(input.timezone)} is not an IANA time zone (e.g. America/Chicago, UTC)`)
  if (input.startDate !== null && !CalendarDate.safeParse(input.startDate).success) invalid('start_date: expected YYYY-MM-DD')
  return { ...input, days, timezone }
}

/**
 * The days of the week that carry a post: posts_per_week of the listed days, spread evenly over them (the
 * i-th post on listed day ⌊i × days / posts_per_week⌋). Three posts over mon–fri go out mon, tue, thu.
 */
export function publishingDays(schedule: Pick<BlogSchedule, 'postsPerWeek' | 'days'>): Weekday[] {
  const days = WEEKDAYS.filter((d) => schedule.days.includes(d))
  const picked: Weekday[] = []
  for (let i = 0; i < schedule.postsPerWeek && i < days.length; i += 1) {
    picked.push(days[Math.floor((i * days.length) / schedule.postsPerWeek)]!)
  }
  return picked
}

/** One publishing slot: when a post goes out, in UTC, and the local date and time it is in the client's zone. */
export interface PublishingSlot {
  /** The instant, ISO 8601 in UTC. */
  readonly at: string
  /** The local date in the schedule's zone, YYYY-MM-DD. */
  readonly localDate: string
  /** The local wall time the post goes out (the schedule's time, or later when a clock change skipped it). */
  readonly localTime: string
  readonly weekday: Weekday
}

const DAY_MS = 24 * 60 * 60 * 1000
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** The wall clock in `timeZone` at instant `ms`, as the UTC instant with the same fields. */
function wallClockMs(timeZone: string, ms: number): number {
  const parts: Record<string, number> = {}
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!)
}

/** The zone's offset from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
function offsetAt(timeZone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000
  return wallClockMs(timeZone, whole) - whole
}

/**
 * The instant the wall clock in `timeZone` reads `wall` (given as the UTC instant with the same fields). A
 * time the clocks skipped (spring forward) is read with the offset before the change, so it lands as far past
 * the change as it was meant to be past the old hour (02:30 in a 02:00→03:00 gap is 03:30); a time that
 * happens twice (fall back) is its first occurrence.
 */
export function zonedWallTimeToUtc(timeZone: string, wall: number): number {
  const before = offsetAt(timeZone, wall - DAY_MS)
  const after = offsetAt(timeZone, wall + DAY_MS)
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wallClockMs(timeZone, instant) === wall)
    .sort((a, b) => a - b)
  return candidates[0] ?? wall - before
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/**
 * The schedule's publishing slots from `from` (inclusive) to `to` (exclusive), oldest first: on each local
 * date of the client's zone whose weekday carries a post (publishingDays) and which is not before
 * start_date, at the schedule's local time, as a UTC instant that follows the zone's clock changes. An
 * inactive schedule has none. A range over BLOG_SLOTS_RANGE_MAX_DAYS days, or one that ends before it
 * starts, is refused.
 */
export function publishingSlots(schedule: BlogSchedule, from: Date, to: Date): PublishingSlot[] {
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) invalid('the range needs two valid instants')
  if (to.getTime() < from.getTime()) invalid(`the range ends (${to.toISOString()}) before it starts (${from.toISOString()})`)
  if (to.getTime() - from.getTime() > BLOG_SLOTS_RANGE_MAX_DAYS * DAY_MS)
    invalid(`the range is longer than ${BLOG_SLOTS_RANGE_MAX_DAYS} days`)
  if (!schedule.active) return []
  const days = new Set(publishingDays(schedule))
  const [hour, minute] = schedule.time.split(':').map(Number) as [number, number]
  const zone = schedule.timezone
  // Local dates from the day before `from` to the day after `to` cover every offset; the filter trims them.
  const firstDay = Math.floor(wallClockMs(zone, from.getTime()) / DAY_MS) * DAY_MS - DAY_MS
  const lastDay = Math.floor(wallClockMs(zone, to.getTime()) / DAY_MS) * DAY_MS + DAY_MS
  const slots: PublishingSlot[] = []
  for (let day = firstDay; day <= lastDay; day += DAY_MS) {
    const weekday = WEEKDAYS[(new Date(day).getUTCDay() + 6) % 7]!
    const localDate = isoDate(day)
    if (!days.has(weekday)) continue
    if (schedule.startDate !== null && localDate < schedule.startDate) continue
    const at = zonedWallTimeToUtc(zone, day + hour * 3_600_000 + minute * 60_000)
    if (at < from.getTime() || at >= to.getTime()) continue
    const wall = new Date(wallClockMs(zone, at))
    const localTime = `${String(wall.getUTCHours()).padStart(2, '0')}:${String(wall.getUTCMinutes()).padStart(2, '0')}`
    slots.push({ at: new Date(at).toISOString(), localDate, localTime, weekday })
  }
  return slots
}
