import { DomainError } from '../../shared/errors.js'

/** `YYYY-MM` moved by `delta` calendar months. */
export function addMonths(month: string, delta: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number]
  const d = new Date(Date.UTC(year, m - 1 + delta, 1))
  return d.toISOString().slice(0, 7)
}

/** The first and last day of a month, YYYY-MM-DD. */
export function daysOf(month: string): { start: string; end: string } {
  const start = `${month}-01`
  const end = new Date(Date.parse(`${addMonths(month, 1)}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  return { start, end }
}

/** The month compared against: the one asked for (which must be another month), else the month before. */
export function againstMonthOf(month: string, against: string | undefined): string {
  if (against === undefined) return addMonths(month, -1)
  if (against === month) throw new DomainError('validation_failed', 'against_month must differ from month', `month ${month} against itself`)
  return against
}
