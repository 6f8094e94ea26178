import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { MAX_ROWS_PER_EVENT, type RanksEvent } from './events.js'
import { rankRowKey, type RankRow } from './rank-row.js'

/**
 * A client's ranks of one day: stream `keyword_ranks-<client_id>-<date>`. The invariant it holds is the rank
 * row's key: one row per keyword × location × device × date. The state is each key's row as recorded, so an
 * identical row recorded again adds nothing, and a different one is a replacement.
 */
export const rankDayStream = (id: RankDayId) => `keyword_ranks-${id.clientId}-${id.date}`

export interface RankDayId {
  readonly clientId: number
  /** YYYY-MM-DD */
  readonly date: string
}

export interface RankDayState {
  readonly clientId: number
  /** rankRowKey → the row recorded for it (compared by rowFingerprint when a row for the key comes again). */
  readonly rows: ReadonlyMap<string, RankRow>
}

export type RankDayCommand = {
  type: 'RecordRanks'
  client_id: number
  date: string
  check_id: number | null
  rows: readonly RankRow[]
  /**
   * What a row does to a different row already recorded for its key: replace it (record_keyword_ranks: a
   * caller correcting its own data), or leave the first one (a rank check: a retried or late check never
   * rewrites what the day already says).
   */
  overwrite: boolean
}

/** How a command's rows fall against the day's rows. */
export interface RankClassification {
  /** The rows to record (new keys and replacements), in the order given. */
  readonly write: readonly RankRow[]
  /** Rows for keys the day has no row for. */
  readonly recorded: number
  /** Rows that replace a different row of the same key (overwrite only). */
  readonly updated: number
  /** Rows identical to the recorded one, and (without overwrite) rows for a key the day already has. */
  readonly unchanged: number
}

/**
 * What a row says, as one string: two rows with the same key and fingerprint are the same observation.
 * The features are listed in a fixed order (not the object's key order, which JSON round trips may keep
 * differently).
 */
export function rowFingerprint(row: RankRow): string {
  const f = row.serp_features
  return JSON.stringify([
    row.position,
    row.url,
    row.page_id,
    row.competitors,
    f.local_pack,
    f.local_pack_includes_client,
    f.featured_snippet,
    f.featured_snippet_is_client,
    f.people_also_ask,
    f.ai_overview,
    f.ai_overview_cites_client,
    row.source,
  ])
}

const initialState = (): RankDayState => ({ clientId: 0, rows: new Map() })

/**
 * Sorts a command's rows against the day. A key given twice in one command is refused: which of the two
 * the caller meant is not ours to guess.
 */
export function classifyRanks(state: RankDayState, rows: readonly RankRow[], overwrite: boolean): RankClassification {
  const write: RankRow[] = []
  let recorded = 0
  let updated = 0
  let unchanged = 0
  const seen = new Set<string>()
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    const key = rankRowKey(row)
    if (seen.has(key)) {
      throw new DomainError(
        'validation_failed',
        'Two ranks have the same keyword, location, device and date',
        `ranks[${i}]: keyword ${row.keyword_id}, location ${row.location_id ?? 'national'}, ${row.device}, ${row.date} is given twice`,
      )
    }
    seen.add(key)
    const before = state.rows.get(key)
    if (before === undefined) recorded++
    else if (overwrite && rowFingerprint(before) !== rowFingerprint(row)) updated++
    else {
      unchanged++
      continue
    }
    write.push(row)
  }
  return { write, recorded, updated, unchanged }
}

function evolve(state: RankDayState, event: RanksEvent): RankDayState {
  // One type today; the switch makes a second one a compile error here until it is folded.
  switch (event.type) {
    case 'KeywordRanksRecorded': {
      const rows = new Map(state.rows)
      for (const row of event.data.rows) rows.set(rankRowKey(row), row)
      return { clientId: event.data.client_id, rows }
    }
  }
}

function decide(command: RankDayCommand, state: RankDayState): RanksEvent[] {
  for (const row of command.rows) {
    if (row.date !== command.date) {
      throw new DomainError('validation_failed', "A day's ranks must all be of that day", `a rank of ${row.date} given for ${command.date}`)
    }
  }
  const rows = classifyRanks(state, command.rows, command.overwrite).write
  const events: RanksEvent[] = []
  for (let start = 0; start < rows.length; start += MAX_ROWS_PER_EVENT) {
    events.push({
      type: 'KeywordRanksRecorded',
      data: {
        client_id: command.client_id,
        date: command.date,
        check_id: command.check_id,
        rows: rows.slice(start, start + MAX_ROWS_PER_EVENT),
      },
    })
  }
  return events
}

export const rankDay: Aggregate<RankDayState, RankDayCommand, RanksEvent, RankDayId> = {
  streamOf: rankDayStream,
  initialState,
  evolve,
  decide,
}
