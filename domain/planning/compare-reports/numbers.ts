/**
 * The rank part of a compare report, pure: a month's rank numbers from each keyword's position (its best
 * position on its latest check of the month; null: checked, not in the top 100), and the keywords that
 * moved most between the two months.
 */

export interface RankNumbers {
  readonly keywords_ranked: number
  readonly top_3: number
  readonly top_10: number
  readonly top_100: number
  readonly average_position: number | null
}

export function rankNumbers(positions: readonly (number | null)[]): RankNumbers {
  const ranked = positions.filter((p): p is number => p !== null)
  const within = (n: number) => ranked.filter((p) => p <= n).length
  const average = ranked.length === 0 ? null : Math.round((ranked.reduce((a, b) => a + b, 0) / ranked.length) * 10) / 10
  return { keywords_ranked: positions.length, top_3: within(3), top_10: within(10), top_100: within(100), average_position: average }
}

export interface Mover {
  readonly keyword: string
  /** The position in the month compared against (null: not in the top 100). */
  readonly from: number | null
  /** The position in the reported month. */
  readonly to: number | null
}

/** Out of the top 100 counts as position 101 when measuring a move. */
const OUTSIDE = 101
const gainOf = (m: Mover) => (m.from ?? OUTSIDE) - (m.to ?? OUTSIDE)

/**
 * Keywords checked in both months whose position changed, the biggest gains first (`up`) and the biggest
 * losses first (`down`), `limit` each; ties by keyword so the page is the same for the same data.
 */
export function movers(
  before: ReadonlyMap<number, number | null>,
  after: ReadonlyMap<number, number | null>,
  names: ReadonlyMap<number, string>,
  limit = 5,
): { up: Mover[]; down: Mover[] } {
  const moved: Mover[] = []
  for (const [id, to] of after) {
    if (!before.has(id)) continue
    const from = before.get(id) ?? null
    if ((from ?? OUTSIDE) === (to ?? OUTSIDE)) continue
    moved.push({ keyword: names.get(id) ?? `keyword ${id}`, from, to })
  }
  const byKeyword = (a: Mover, b: Mover) => a.keyword.localeCompare(b.keyword)
  const up = moved.filter((m) => gainOf(m) > 0).sort((a, b) => gainOf(b) - gainOf(a) || byKeyword(a, b))
  const down = moved.filter((m) => gainOf(m) < 0).sort((a, b) => gainOf(a) - gainOf(b) || byKeyword(a, b))
  return { up: up.slice(0, limit), down: down.slice(0, limit) }
}
