import type { AeoSummary } from '../../../projections/aeo/reports/report-data.js'
import { monthOfDate } from '../../../domain/shared/months.js'
import { loadVisibleSummaries, type SummaryAsk } from '../../../projections/aeo/reports/summary-query.js'
import type { ReadDb } from '../../../projections/tables.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { Coalescer } from '../../platform/coalesce.js'
import { shareAnswer } from '../../platform/shared-answer.js'

/**
 * get_aeo_summary's read, gathered (read-api/platform/coalesce.ts) per organization, as get_client's is:
 * dashboards and agents ask for many clients' summaries at a time, and each statement costs a round trip,
 * an executor start and a wake-up of the backend on top of its index lookups. Requests of one organization
 * that arrive while a summary read of that organization runs wait and share the next statement
 * (loadVisibleSummaries: one LATERAL subquery per distinct client and month asked); requests asking the same
 * client and month also share one built answer, and so do later requests while the statement returns the
 * same row for it (projections/aeo/reports/summary-answers.ts).
 *
 * Read-your-writes holds as for get_client: the Coalescer never lets a request join a statement that was
 * already in flight when it arrived, so every answer comes from a statement that started after its request.
 * Scoping is per request: the organization the caller resolved to is the key (the statement checks each
 * client's visibility for it), so a request only ever shares a statement with requests that may see exactly
 * what it may, and a client the caller may not see answers not found to that request alone. The current
 * month is in the key because it is the fallback month of a client without captures.
 *
 * A shared answer is one object handed to every request that asked for it, marked as shared so that the RPC
 * route serialises it once (read-api/platform/shared-answer.ts).
 */
interface Ask extends SummaryAsk {
  readonly orgId: number | null
  readonly now: Date
}

const summaryReads = new WeakMap<ReadDb, Coalescer<string, Ask, AeoSummary | undefined>>()

export async function coalescedSummary(
  db: ReadDb,
  orgId: number | null,
  clientId: number,
  requested: string | undefined,
  now: Date,
): Promise<AeoSummary> {
  let coalescer = summaryReads.get(db)
  if (!coalescer) {
    // One key, so one organization and current month: the first ask's stand for all of the batch.
    coalescer = new Coalescer((_key, asks) => loadVisibleSummaries(db, asks[0]!.orgId, asks, asks[0]!.now))
    summaryReads.set(db, coalescer)
  }
  const summary = await coalescer.submit(`${orgId ?? '*'}/${monthOfDate(now)}`, { orgId, clientId, requested, now })
  if (!summary) throw new NotFoundError('client', clientId)
  return shareAnswer(summary)
}
