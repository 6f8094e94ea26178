/**
 * The 95% Wilson score interval of a proportion. Chosen over the normal ("Wald") interval because AI
 * Visibility samples are small (tens of answers per service a month) and rates sit near 0 or 1, where the
 * Wald interval collapses to a point or leaves [0, 1]; Wilson stays inside [0, 1] and is honest at x = 0
 * and x = n. Pure; never throws for valid counts.
 */

/** The two-sided 95% normal quantile (Φ⁻¹(0.975)). */
export const Z95 = 1.959963984540054

export interface Proportion {
  readonly numerator: number
  readonly denominator: number
  /** numerator / denominator, or null when there is no sample. */
  readonly rate: number | null
  /** The 95% Wilson score interval; [0, 1] (nothing known) when there is no sample. */
  readonly ci95: [number, number]
}

/** Rounds to 4 decimals (0.01 percentage points): enough for any report, and stable in JSON. */
const round = (value: number) => Math.round(value * 10_000) / 10_000

/** The Wilson score interval of `successes` out of `trials` at quantile `z` (unrounded). */
export function wilsonInterval(successes: number, trials: number, z = Z95): [number, number] {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || trials < 0 || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval needs integers 0 <= successes <= trials, got ${successes}/${trials}`)
  }
  if (trials === 0) return [0, 1]
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const center = (p + z2 / (2 * trials)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))
  // At x = 0 and x = n the bound is exactly 0 or 1; float error must not push it past.
  const low = successes === 0 ? 0 : Math.max(0, center - half)
  const high = successes === trials ? 1 : Math.min(1, center + half)
  return [low, high]
}

/** A rate with its sample and 95% Wilson interval, rounded for display. */
export function proportion(numerator: number, denominator: number): Proportion {
  const [low, high] = wilsonInterval(numerator, denominator)
  return {
    numerator,
    denominator,
    rate: denominator === 0 ? null : round(numerator / denominator),
    ci95: [round(low), round(high)],
  }
}
