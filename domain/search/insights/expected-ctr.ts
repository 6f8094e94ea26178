/**
 * The click-through rate an organic result earns at a position, on average: the curve the low-CTR rule
 * measures a query against. Positions 1-10 follow the published large-sample studies of Google's organic
 * CTR (position 1 ≈ 28 %, falling to ≈ 2.4 % at 10); page two earns about 1 %, falling off beyond. A
 * Search Console position is an impression-weighted average (3.4), so the curve is read between whole
 * positions by straight lines.
 */
const CURVE: readonly number[] = [
  0.276, // 1
  0.158, // 2
  0.11, // 3
  0.084, // 4
  0.063, // 5
  0.049, // 6
  0.039, // 7
  0.033, // 8
  0.027, // 9
  0.024, // 10
  0.012, // 11
  0.011, // 12
  0.01, // 13
  0.009, // 14
  0.008, // 15
  0.007, // 16
  0.006, // 17
  0.006, // 18
  0.005, // 19
  0.005, // 20
]

/** Beyond page two results are rarely seen at all: the curve's last value holds. */
export const EXPECTED_CTR_MAX_POSITION = CURVE.length

/** The expected CTR (0-1) at a position ≥ 1 (fractional positions interpolated; below 1 reads as 1). */
export function expectedCtr(position: number): number {
  if (!Number.isFinite(position) || position <= 1) return CURVE[0]!
  if (position >= CURVE.length) return CURVE[CURVE.length - 1]!
  const lower = Math.floor(position)
  const fraction = position - lower
  const a = CURVE[lower - 1]!
  const b = CURVE[lower]!
  return a + (b - a) * fraction
}
