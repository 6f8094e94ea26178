import { median, spread } from './stats.js'
import type { Figure } from './types.js'

/** One figure of one scenario over its repetitions: what the table prints and results.json holds. */
export interface Result {
  scenario: string
  metric: string
  unit: string
  median: number
  min: number
  max: number
  /** (max - min) / median; the table prints half of it as ±%. */
  spread: number
  /** The figure of each repetition, in run order (NaN where a repetition did not report it). */
  runs: number[]
  target?: { op: '>=' | '<='; value: number } | undefined
  /** Whether the median meets the target; absent for a figure without one. */
  met?: boolean | undefined
}

/**
 * The results of one scenario from its repetitions. The figures are those of the first repetition, in its
 * order; a repetition that lacks one counts as NaN for it, so the median and the range show the gap instead of
 * hiding it.
 */
export function summarize(scenario: string, runs: readonly (readonly Figure[])[]): Result[] {
  return (runs[0] ?? []).map((figure) => {
    const values = runs.map((figures) => figures.find((f) => f.metric === figure.metric)?.value ?? Number.NaN)
    const m = median(values)
    return {
      scenario,
      metric: figure.metric,
      unit: figure.unit,
      median: m,
      min: Math.min(...values),
      max: Math.max(...values),
      spread: spread(values),
      runs: values,
      target: figure.target,
      met: figure.target ? meets(m, figure.target) : undefined,
    }
  })
}

function meets(value: number, target: { op: '>=' | '<='; value: number }): boolean {
  return target.op === '>=' ? value >= target.value : value <= target.value
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US')
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

/** The printed table: one row per figure, the median right-aligned, `met` or `MISSED` where there is a target. */
export function table(results: readonly Result[]): string {
  const rows = [
    ['scenario', 'metric', 'median', 'unit', 'spread', 'target', ''],
    ...results.map((r) => [
      r.scenario,
      r.metric,
      format(r.median),
      r.unit,
      `±${(r.spread * 50).toFixed(1)}%`,
      r.target ? `${r.target.op} ${format(r.target.value)}` : '',
      r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
    ]),
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}
