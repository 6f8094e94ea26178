import { rankDay, rankDayStream } from '../../../domain/search/ranks/rank-day.js'
import { aggregateStateCacheOf } from '../../aggregate-state-cache.js'
import { loadState, type WriteDeps } from '../../command-handler.js'

/**
 * The keys (rankRowKey) of the client's ranks already recorded for `date`, from the day's stream in the log
 * (not a read model that may lag): what a resumed or repeated check of the day skips. The day's state is not
 * left in the aggregate state cache, like every rank write leaves it (a day's fingerprints are large).
 */
export async function recordedRankKeys(deps: Pick<WriteDeps, 'store'>, clientId: number, date: string): Promise<Set<string>> {
  const id = { clientId, date }
  try {
    const state = await loadState(deps.store, rankDay, id)
    return new Set(state.rows.keys())
  } finally {
    aggregateStateCacheOf(deps.store).drop(rankDayStream(id))
  }
}
