import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { rankHistories, type HistoryAsk, type RankHistory } from '../../../projections/search/ranks/history-query.js'
import type { ReadDb } from '../../../projections/tables.js'
import { Coalescer } from '../../platform/coalesce.js'

/**
 * get_rank_history's read, gathered (read-api/platform/coalesce.ts) per organization, as get_aeo_summary's
 * is: a dashboard draws a chart per keyword and asks for dozens at once, and each statement costs a round
 * trip, an executor start and a wake-up of the backend besides its index scan. Requests of one organization
 * that arrive while a history read of that organization runs wait and share the next statement
 * (projections/search/ranks/history-query.ts: one row per ask).
 *
 * Read-your-writes holds: the Coalescer never lets a request join a statement already in flight when it
 * arrived, so every answer comes from a statement that started after its request. Scoping is per request:
 * the organization the caller resolved to is the key, so a request only shares a statement with requests
 * that may see exactly what it may, and a keyword the caller may not see answers not found to that request alone.
 */
const historyReads = new WeakMap<ReadDb, Coalescer<string, HistoryAsk & { orgId: number | null }, RankHistory | undefined>>()

export async function coalescedRankHistory(
  db: ReadDb,
  orgId: number | null,
  ask: { keywordId: number; device: RankDevice; location: number | null | undefined; limit: number },
): Promise<RankHistory> {
  let coalescer = historyReads.get(db)
  if (!coalescer) {
    // One key, so one organization: the first ask's stands for all of the batch.
    coalescer = new Coalescer((_key, asks) => rankHistories(db, asks[0]!.orgId, asks))
    historyReads.set(db, coalescer)
  }
  const history = await coalescer.submit(String(orgId ?? '*'), { ...ask, orgId })
  if (!history) throw new NotFoundError('keyword', ask.keywordId)
  return history
}
