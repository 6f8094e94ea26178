/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Relative spread of repeated figures: (max - min) / median, 0 for one value. */
export function spread(values: readonly number[]): number {
  if (values.length < 2) return 0
  const m = median(values)
  return m === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / Math.abs(m)
}

/** The p-th percentile (0–100) of a list of samples, nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

/** Runs `fn` and returns its result and the wall time in seconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = process.hrtime.bigint()
  const result = await fn()
  return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 }
}
