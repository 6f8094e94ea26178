/** Calendar arithmetic on `YYYY-MM` months (UTC): the one place a month is counted forward or back. */

const parse = (month: string): number => {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return y * 12 + (m - 1)
}
const format = (index: number): string => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`

/** The month after `month` (`2026-12` → `2027-01`). */
export const monthAfter = (month: string): string => format(parse(month) + 1)

/** The month `n` months before `month`. */
export const monthsBefore = (month: string, n: number): string => format(parse(month) - n)

/** The month an instant falls in (UTC). */
export const monthOfDate = (at: Date): string => at.toISOString().slice(0, 7)

/** Every month from `first` to `last`, both included, ascending (empty when `first` is after `last`). */
export function monthRange(first: string, last: string): string[] {
  const months: string[] = []
  for (let i = parse(first); i <= parse(last); i++) months.push(format(i))
  return months
}

/** The month `delta` months from `month` (negative: before). */
export const addMonths = (month: string, delta: number): string => format(parse(month) + delta)

/** The first and last day (YYYY-MM-DD) of a month. */
export function daysOf(month: string): { start: string; end: string } {
  const start = `${month}-01`
  const end = new Date(Date.parse(`${addMonths(month, 1)}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  return { start, end }
}
