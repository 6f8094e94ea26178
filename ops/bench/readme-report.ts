/**
 * The README's Performance section as data: the latest full run's table (one row per scenario, naming it in
 * backticks first and ending in `met` or a cell that says what was missed) and the "Where a target is missed"
 * list (one bullet per scenario with a miss, its bold lead naming the scenario in backticks). A missed target
 * must be either fixed or argued there; `unexplainedMisses` is that rule, used by the bench
 * after a run and by the test that keeps the README honest.
 */
import type { Result } from './results.js'

export interface ReadmeRow {
  readonly scenario: string
  /** The row's last cell says a target was missed. */
  readonly missed: boolean
}

export interface ReadmeReport {
  readonly rows: readonly ReadmeRow[]
  /** Scenarios with an entry under "Where a target is missed". */
  readonly explained: readonly string[]
}

export const LATEST_RUN_HEADING = '### Latest full run'
export const MISSED_HEADING = '### Where a target is missed'

/** The lines from a heading that starts with `heading` to the next heading of that level or above. */
function section(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.startsWith(heading))
  if (start < 0) return []
  const end = lines.findIndex((line, i) => i > start && /^#{1,3} /.test(line))
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

export function readReadmeReport(markdown: string): ReadmeReport {
  const rows = section(markdown, LATEST_RUN_HEADING)
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .flatMap((cells) => {
      const scenario = /^`([^`]+)`/.exec(cells[0] ?? '')?.[1]
      return scenario ? [{ scenario, missed: /\bmissed\b/i.test(cells.at(-1) ?? '') }] : []
    })
  const explained = section(markdown, MISSED_HEADING).flatMap((line) => {
    const scenario = /^- \*\*`([^`]+)`/.exec(line)?.[1]
    return scenario ? [scenario] : []
  })
  return { rows, explained }
}

/** Figures that missed their target in a scenario the README does not argue for. */
export function unexplainedMisses(results: readonly Result[], report: ReadmeReport): Result[] {
  return results.filter((r) => r.met === false && !report.explained.includes(r.scenario))
}
