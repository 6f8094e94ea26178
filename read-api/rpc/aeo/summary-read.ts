import type { AeoSummary } from '../../../projections/aeo/reports/report-data.js'
import { monthOf } from '../../../projections/aeo/reports/report-data.js'
import { loadVisibleSummary } from '../../../projections/aeo/reports/summary-query.js'
import type { ReadDb } from '../../../projections/tables.js'
import { Coalescer } from '../../platform/coalesce.js'

/**
 * get_aeo_summary's read, gathered (read-api/platform/coalesce.ts): dashboards and agents ask for the same
 * client's summary many at a time, and one summary costs a statement of about ten index lookups plus the
 * rates, far more than handing the built answer to several requests. Requests for the same organization,
 * client, requested month and current month that arrive while a summary of that key is being read wait and
 * share the next statement and its one built result.
 *
 * Read-your-writes holds as for get_client: the Coalescer never lets a request join a statement that was
 * already in flight when it arrived, so every answer comes from a statement that started after its request.
 * Scoping is per request: the organization the caller resolved to is part of the key (the statement checks
 * the client's visibility for it), so a request only ever shares with requests that may see exactly the same
 * thing, and a not-found goes to each of them alike. The current month is in the key because it is the
 * fallback month of a client without captures.
 *
 * The shared answer is one object handed to every request of the batch: callers only serialise it.
 */
interface SummaryAsk {
  readonly orgId: number | null
  readonly clientId: number
  readonly requested: string | undefined
  readonly now: Date
}

const summaryReads = new WeakMap<ReadDb, Coalescer<string, SummaryAsk, AeoSummary>>()

export async function coalescedSummary(db: ReadDb, orgId: number | null, clientId: number, requested: string | undefined, now: Date): Promise<AeoSummary> {
  let coalescer = summaryReads.get(db)
  if (!coalescer) {
    coalescer = new Coalescer(async (_key, asks) => {
      // One key, so one organization, client, requested and current month: the first ask stands for all.
      const { orgId, clientId, requested, now } = asks[0]!
      const summary = await loadVisibleSummary(db, orgId, clientId, requested, now)
      return asks.map(() => summary)
    })
    summaryReads.set(db, coalescer)
  }
  const key = `${orgId ?? '*'}/${clientId}/${requested ?? ''}/${monthOf(now)}`
  return coalescer.submit(key, { orgId, clientId, requested, now })
}
