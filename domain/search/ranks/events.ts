import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { RankDate, RankRow } from './rank-row.js'

/*
 * Rank rows are recorded in batches: a client's ranks of one day are one stream, `keyword_ranks-<client_id>-<date>`
 * (domain/search/ranks/rank-day.ts), because "one row per keyword × location × device × date" is decided
 * against the day's rows, and a rank check writes a whole day at once. One event carries up to
 * MAX_ROWS_PER_EVENT rows, so a million rows are a few thousand events, not a million.
 */

/**
 * The most rows one KeywordRanksRecorded holds. A command with more appends several events at once (one
 * append, so they are recorded together or not at all). A row with ten competitors is about 500 bytes of
 * JSON, so an event stays near 25 KB, the size of a long AI Visibility capture: a rebuild reads the log in
 * pages of thousands of events, and a page of 500-row events would hold over a gigabyte.
 */
export const MAX_ROWS_PER_EVENT = 50

/**
 * Rows recorded as the client's ranks of `date`: each row is new for its key, or replaces the row recorded
 * before for the same key (record_keyword_ranks only; a rank check never replaces). Every row's date is `date`.
 * `check_id`: the rank check that observed them; null for record_keyword_ranks.
 */
export const KeywordRanksRecorded = z.object({
  client_id: Id,
  date: RankDate,
  check_id: Id.nullable(),
  rows: z.array(RankRow).min(1).max(MAX_ROWS_PER_EVENT),
})

export const ranksEventSchemas = { KeywordRanksRecorded } as const

type Schemas = typeof ranksEventSchemas
export type RanksEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
