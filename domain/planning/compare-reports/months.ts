import { DomainError } from '../../shared/errors.js'
import { addMonths } from '../../shared/months.js'

/** The month compared against: the one asked for (which must be another month), else the month before. */
export function againstMonthOf(month: string, against: string | undefined): string {
  if (against === undefined) return addMonths(month, -1)
  if (against === month) throw new DomainError('validation_failed', 'against_month must differ from month', `month ${month} against itself`)
  return against
}
