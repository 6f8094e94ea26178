/** The blog's publishing slots: days spread over the week, local times to UTC across clock changes, limits. */
import t from 'tap'
import { type BlogSchedule, normalizeSchedule, publishingDays, publishingSlots } from '../../domain/content/blog/schedule.js'
import { DomainError } from '../../domain/shared/errors.js'

const chicago: BlogSchedule = {
  postsPerWeek: 2,
  days: ['tue', 'thu'],
  time: '09:30',
  timezone: 'America/Chicago',
  active: true,
  startDate: null,
}

t.test('posts spread evenly over the listed days', async (t) => {
  t.same(publishingDays({ postsPerWeek: 3, days: ['mon', 'tue', 'wed', 'thu', 'fri'] }), ['mon', 'tue', 'thu'])
  t.same(publishingDays({ postsPerWeek: 2, days: ['sun', 'mon'] }), ['mon', 'sun'], 'week order, Monday first')
  t.same(publishingDays({ postsPerWeek: 1, days: ['fri'] }), ['fri'])
})

t.test('slots in UTC follow daylight saving time', async (t) => {
  // Chicago is UTC-6 in winter, UTC-5 in summer (from 2026-03-08).
  const march = publishingSlots(chicago, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-14T00:00:00Z'))
  t.same(
    march.map((s) => s.at),
    ['2026-03-03T15:30:00.000Z', '2026-03-05T15:30:00.000Z', '2026-03-10T14:30:00.000Z', '2026-03-12T14:30:00.000Z'],
  )
  t.same(march[0], { at: '2026-03-03T15:30:00.000Z', localDate: '2026-03-03', localTime: '09:30', weekday: 'tue' })
  const europe = publishingSlots(
    { ...chicago, days: ['sun'], postsPerWeek: 1, timezone: 'Europe/Berlin', time: '12:00' },
    new Date('2026-10-18T00:00:00Z'),
    new Date('2026-11-02T00:00:00Z'),
  )
  t.same(
    europe.map((s) => s.at),
    ['2026-10-18T10:00:00.000Z', '2026-10-25T11:00:00.000Z', '2026-11-01T11:00:00.000Z'],
    'Berlin leaves summer time on 2026-10-25 at 03:00',
  )
})

t.test('a skipped local time moves past the gap; a repeated one is its first occurrence', async (t) => {
  const gap = publishingSlots(
    { ...chicago, days: ['sun'], postsPerWeek: 1, time: '02:30' },
    new Date('2026-03-08T00:00:00Z'),
    new Date('2026-03-09T00:00:00Z'),
  )
  t.same(gap, [{ at: '2026-03-08T08:30:00.000Z', localDate: '2026-03-08', localTime: '03:30', weekday: 'sun' }])
  const twice = publishingSlots(
    { ...chicago, days: ['sun'], postsPerWeek: 1, time: '01:30' },
    new Date('2026-11-01T00:00:00Z'),
    new Date('2026-11-02T00:00:00Z'),
  )
  t.same(twice, [{ at: '2026-11-01T06:30:00.000Z', localDate: '2026-11-01', localTime: '01:30', weekday: 'sun' }])
})

t.test('the local date decides the weekday, not the UTC date', async (t) => {
  const tokyo = publishingSlots(
    { ...chicago, days: ['mon'], postsPerWeek: 1, time: '07:00', timezone: 'Asia/Tokyo' },
    new Date('2026-06-01T00:00:00Z'),
    new Date('2026-06-08T00:00:00Z'),
  )
  t.same(
    tokyo.map((s) => [s.at, s.localDate, s.weekday]),
    [['2026-06-07T22:00:00.000Z', '2026-06-08', 'mon']],
  )
})

t.test('start date, inactive schedules, range bounds and limits', async (t) => {
  const from = new Date('2026-03-01T00:00:00Z')
  const to = new Date('2026-03-14T00:00:00Z')
  t.same(
    publishingSlots({ ...chicago, startDate: '2026-03-06' }, from, to).map((s) => s.localDate),
    ['2026-03-10', '2026-03-12'],
  )
  t.same(publishingSlots({ ...chicago, active: false }, from, to), [])
  t.same(
    publishingSlots(chicago, new Date('2026-03-03T15:30:00Z'), new Date('2026-03-05T15:30:00Z')).length,
    1,
    'from inclusive, to exclusive',
  )
  t.throws(() => publishingSlots(chicago, to, from), DomainError)
  t.throws(() => publishingSlots(chicago, from, new Date('2027-06-01T00:00:00Z')), { code: 'validation_failed' })
})

t.test('normalizeSchedule checks and canonicalizes', async (t) => {
  t.same(normalizeSchedule({ ...chicago, days: ['thu', 'tue'], timezone: 'america/chicago' }).days, ['tue', 'thu'])
  t.equal(normalizeSchedule({ ...chicago, timezone: 'america/chicago' }).timezone, 'America/Chicago')
  for (const [label, bad, field] of [
    ['an unknown zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['more posts than days', { postsPerWeek: 3 }, 'days'],
    ['a repeated day', { days: ['tue', 'tue'] }, 'days'],
    ['a bad time', { time: '24:00' }, 'time'],
    ['a bad start date', { startDate: '2026-02-30' }, 'start_date'],
  ] as const) {
    t.throws(
      () => normalizeSchedule({ ...chicago, ...(bad as Partial<BlogSchedule>) }),
      { code: 'validation_failed', detail: new RegExp(field) },
      label,
    )
  }
})
