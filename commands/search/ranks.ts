import { pageSet } from '../../domain/pages/page-set.js'
import { checkRankRows, pageMatcher, type RankFacts } from '../../domain/search/ranks/rank-facts.js'
import { classifyRanks, rankDay, rankDayStream, type RankClassification, type RankDayCommand } from '../../domain/search/ranks/rank-day.js'
import type { RankRow } from '../../domain/search/ranks/rank-row.js'
import { writableClient } from '../aeo/capture-facts.js'
import { aggregateStateCacheOf } from '../aggregate-state-cache.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import { loadKeywordSet } from '../keywords.js'

export interface RecordKeywordRanksInput {
  readonly clientId: number
  readonly rows: readonly RankRow[]
  /** The rank check that observed the rows; absent or null for record_keyword_ranks. */
  readonly checkId?: number | null
  /**
   * A different row for a key the day already has: true replaces it (counted `updated`), false keeps the
   * first (counted `unchanged`). record_keyword_ranks passes true, rank checks false.
   */
  readonly overwrite: boolean
}

export interface RecordKeywordRanksOutcome {
  /** Rows for keys that had none. */
  readonly recorded: number
  /** Rows that replaced a different row of the same key (overwrite only). */
  readonly updated: number
  /** Rows identical to the recorded one, or (without overwrite) for a key that already had a row. */
  readonly unchanged: number
  /** The position of the last event appended; null when nothing was. */
  readonly position: Position | null
}

/**
 * Records rank rows for a client: one decision per day (`keyword_ranks-<client>-<date>`), so retrying the same
 * call records nothing twice. Every row must name a live keyword of the client, one of its current locations
 * (or none) and one of its pages (or none), else the call records nothing and throws a coded DomainError
 * (rank_keyword_unknown, rank_keyword_deleted, rank_location_unknown, rank_page_unknown; a key given twice:
 * validation_failed). A deleted client: client_deleted. Visibility to the caller is the caller's to check.
 *
 * Pass rows in batches (a check's whole day, or hundreds at a time): each call folds the day's stream.
 */
export async function recordKeywordRanks(
  deps: WriteDeps,
  context: CommandContext,
  input: RecordKeywordRanksInput,
): Promise<RecordKeywordRanksOutcome> {
  const owner = await writableClient(deps.store, input.clientId, null)
  if (input.rows.length === 0) return { recorded: 0, updated: 0, unchanged: 0, position: null }
  checkRankRows(input.rows, await rankFacts(deps, owner.id, owner.locations), owner.id)
  const byDate = new Map<string, RankRow[]>()
  for (const row of input.rows) {
    const rows = byDate.get(row.date)
    if (rows) rows.push(row)
    else byDate.set(row.date, [row])
  }
  let recorded = 0
  let updated = 0
  let unchanged = 0
  let position: Position | null = null
  const cache = aggregateStateCacheOf(deps.store)
  for (const [date, rows] of byDate) {
    // The counts of the state the command was last decided on (the handler decides again after a lost race).
    let decided: RankClassification | undefined
    const id = { clientId: owner.id, date }
    try {
      const outcome = await handleCommand(deps, {
        aggregate: rankDay,
        id,
        command: (state): RankDayCommand => {
          decided = classifyRanks(state, rows, input.overwrite)
          return { type: 'RecordRanks', client_id: owner.id, date, check_id: input.checkId ?? null, rows, overwrite: input.overwrite }
        },
        context,
        orgId: owner.orgId,
      })
      if (outcome.position) position = outcome.position
    } finally {
      // A day is written about once (by its check), and its state holds a fingerprint per row: kept in the
      // aggregate state cache, a million rows would stay in memory until evicted. The next write reads the day again.
      cache.drop(rankDayStream(id))
    }
    recorded += decided!.recorded
    updated += decided!.updated
    unchanged += decided!.unchanged
  }
  return { recorded, updated, unchanged, position }
}

/** What the client's rows may name: its keywords, current locations and pages, from their sets in the log. */
async function rankFacts(deps: WriteDeps, clientId: number, locations: readonly { readonly id: number }[]): Promise<RankFacts> {
  const keywords = await loadKeywordSet(deps, clientId)
  const pages = await loadState(deps.store, pageSet, clientId)
  return {
    keywords: new Map(keywords.keywords.map((k) => [k.id, k.deleted])),
    locationIds: new Set(locations.map((l) => l.id)),
    pageIds: new Set(pages.pages.map((p) => p.id)),
  }
}

/** A rank as record_keyword_ranks takes it: a RankRow whose page may be left to be found by its URL. */
export type RankInput = Omit<RankRow, 'page_id' | 'source'> & { readonly page_id?: number | null | undefined }

/**
 * record_keyword_ranks: the caller's rows (source `recorded`), each without a page_id given matched to the
 * client's page by URL, replacing any different row of the same key.
 */
export async function recordCallerRanks(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; ranks: readonly RankInput[] },
): Promise<RecordKeywordRanksOutcome> {
  const pages = await loadState(deps.store, pageSet, input.clientId)
  const match = pageMatcher(pages.pages)
  const rows = input.ranks.map(
    (rank): RankRow => ({ ...rank, page_id: rank.page_id === undefined ? match(rank.url) : rank.page_id, source: 'recorded' }),
  )
  return recordKeywordRanks(deps, context, { clientId: input.clientId, rows, overwrite: true })
}
