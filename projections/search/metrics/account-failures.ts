import { sql } from 'kysely'
import type { MetricsFailureCode } from '../../../domain/search/metrics/events.js'
import { isAccountFailure } from '../../../domain/search/metrics/failures.js'
import type { ReadDb } from '../../tables.js'

/** An organization whose last provider fetch failed on credentials or billing, and whether anyone asked again since. */
export interface AccountFailure {
  readonly orgId: number
  readonly code: MetricsFailureCode
  readonly at: Date
  /** The latest refresh_keyword_metrics of the organization's keywords after that failure; null: none. */
  readonly refreshRequestedAfter: Date | null
}

/**
 * Organizations whose latest DataForSEO fetch ended in a 401/402 failure (metrics_provider_unauthorized or
 * metrics_provider_payment_required). The metrics processor leaves them alone for a cooldown, so a wrong
 * password or an empty balance costs one failed call per organization per cooldown, not one per pass.
 */
export async function accountFailures(read: ReadDb): Promise<AccountFailure[]> {
  const latest = await read
    .selectFrom('keyword_metrics_fetches')
    .select(['org_id', 'status', 'error_code', 'recorded_at'])
    .distinctOn('org_id')
    .where('source', '=', 'dataforseo')
    .orderBy('org_id')
    .orderBy('recorded_at', 'desc')
    // Two fetches ending in the same millisecond: the failure counts (waiting is the safe side).
    .orderBy(sql`status = 'failed'`, 'desc')
    .execute()
  const failed = latest.filter(
    (f) => f.status === 'failed' && f.error_code !== null && isAccountFailure(f.error_code as MetricsFailureCode),
  )
  if (failed.length === 0) return []
  const refreshes = await read
    .selectFrom('keyword_metrics')
    .select(['org_id', (eb) => eb.fn.max('refresh_requested_at').as('requested_at')])
    .where(sql<boolean>`org_id = any(${sql.val(failed.map((f) => f.org_id))}::bigint[])`)
    .groupBy('org_id')
    .execute()
  const refreshOf = new Map(refreshes.map((r) => [r.org_id, r.requested_at === null ? null : new Date(r.requested_at)]))
  return failed.map((f) => {
    const refreshed = refreshOf.get(f.org_id) ?? null
    return {
      orgId: f.org_id,
      code: f.error_code as MetricsFailureCode,
      at: f.recorded_at,
      refreshRequestedAfter: refreshed !== null && refreshed.getTime() > f.recorded_at.getTime() ? refreshed : null,
    }
  })
}
