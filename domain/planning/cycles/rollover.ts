/**
 * The hour ledger of a client's months: what each month's budget, rollover and work add up to. Pure: the
 * read side gathers the facts (budget settings, the month's items, its close), this decides the numbers, so
 * get_hour_budgets and the owner's overview agree and the rule is tested in one place.
 *
 * The rollover rule: when a month's cycle is closed, its unused hours (available − done, never below 0) roll
 * into the month its close carried into (normally the next), capped at that month's own budget, so a month
 * never holds more than twice its budget; a month without a budget has no available hours and rolls nothing,
 * and a month without a budget takes nothing in. An open month rolls nothing (yet).
 */

/** What is known of one month of a client. */
export interface MonthFacts {
  readonly month: string
  /** The budget in effect (the close's record for a closed month, the settings otherwise); null: none. */
  readonly budgetHours: number | null
  /** Hours of the month's live items, skipped ones left out (a skipped item will spend nothing). */
  readonly plannedHours: number
  /** Hours of the month's done items. */
  readonly doneHours: number
  readonly itemsPlanned: number
  readonly itemsDone: number
  /** Unfinished items the close carried into the next month (0 while open). */
  readonly itemsCarriedOut: number
  /** The close: null while the month is open. */
  readonly closedInto: string | null
}

export interface MonthLedger {
  readonly month: string
  readonly budgetHours: number | null
  readonly rolledOverInHours: number
  /** budget + rolled over in; null without a budget. */
  readonly availableHours: number | null
  readonly plannedHours: number
  readonly doneHours: number
  /** available − done, never below 0; null without a budget. */
  readonly unusedHours: number | null
  readonly itemsPlanned: number
  readonly itemsDone: number
  readonly itemsCarriedOut: number
  readonly closed: boolean
}

const round = (hours: number): number => Math.round(hours * 100) / 100

/** The ledger of `months` (any order; each month once), ascending: each month's rollover from the one closed into it. */
export function hourLedger(months: readonly MonthFacts[]): MonthLedger[] {
  const ascending = [...months].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0))
  /** Unused hours of closed months, by the month they roll into. */
  const rollingInto = new Map<string, number>()
  const ledger: MonthLedger[] = []
  for (const m of ascending) {
    const offered = rollingInto.get(m.month) ?? 0
    const rolledIn = m.budgetHours === null ? 0 : round(Math.min(offered, m.budgetHours))
    const available = m.budgetHours === null ? null : round(m.budgetHours + rolledIn)
    const unused = available === null ? null : round(Math.max(0, available - m.doneHours))
    if (m.closedInto !== null && unused !== null && m.closedInto > m.month) {
      rollingInto.set(m.closedInto, round((rollingInto.get(m.closedInto) ?? 0) + unused))
    }
    ledger.push({
      month: m.month,
      budgetHours: m.budgetHours,
      rolledOverInHours: rolledIn,
      availableHours: available,
      plannedHours: round(m.plannedHours),
      doneHours: round(m.doneHours),
      unusedHours: unused,
      itemsPlanned: m.itemsPlanned,
      itemsDone: m.itemsDone,
      itemsCarriedOut: m.itemsCarriedOut,
      closed: m.closedInto !== null,
    })
  }
  return ledger
}

/** One closed month of a client: the month, the month it carried into, how many items it carried. */
export interface ClosedMonthFacts {
  readonly month: string
  readonly nextMonth: string
  readonly carried: number
}

/**
 * get_consecutive_rollover_months: how many closed months in a row, ending with the latest closed one,
 * carried unfinished items over. "In a row" follows the chain of closes (each earlier close carried into the
 * later closed month), so a gap (a month never closed between two closes) ends the run. 0 when the latest
 * closed month finished everything, or nothing is closed.
 */
export function consecutiveRolloverMonths(closes: readonly ClosedMonthFacts[]): number {
  const descending = [...closes].sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0))
  let count = 0
  let later: ClosedMonthFacts | null = null
  for (const close of descending) {
    if (later !== null && close.nextMonth !== later.month) break
    if (close.carried === 0) break
    count++
    later = close
  }
  return count
}
