import { nameKey } from '../../clients/values.js'
import type { RankDevice } from './rank-row.js'

/**
 * A keyword has one series of ranks per location × device. The reads that answer one series default to the
 * keyword's primary one, so a caller who names only the keyword gets the series an agency reports on.
 */
export interface RankSeries {
  /** null: national. */
  readonly locationId: number | null
  readonly device: RankDevice
}

/** The device a series defaults to: desktop, what agencies have reported on since rank tracking began. */
export const PRIMARY_DEVICE: RankDevice = 'desktop'

/**
 * The location of a keyword's primary series: the client location the keyword names (its `location`,
 * compared as location names are), else the client's first location (oldest), else national (null).
 * `locations`: the client's current locations, oldest first.
 */
export function primaryLocationId(
  keywordLocation: string,
  locations: readonly { readonly id: number; readonly name: string }[],
): number | null {
  const wanted = nameKey(keywordLocation)
  const named = wanted === '' ? undefined : locations.find((l) => nameKey(l.name) === wanted)
  return named?.id ?? locations[0]?.id ?? null
}

/** The series asked for: each part given, else the keyword's primary one. */
export function seriesOf(
  asked: { readonly device?: RankDevice | undefined; readonly location_id?: number | null | undefined },
  primaryLocation: number | null,
): RankSeries {
  return {
    device: asked.device ?? PRIMARY_DEVICE,
    locationId: asked.location_id === undefined ? primaryLocation : asked.location_id,
  }
}

/**
 * How far a rank moved since the one before: positive when it climbed (position 8 → 5 is +3), negative
 * when it fell; null when either is outside the top 100 (a climb from "not ranked" has no size).
 */
export function rankChange(before: number | null | undefined, now: number | null): number | null {
  if (before === null || before === undefined || now === null) return null
  return before - now
}
