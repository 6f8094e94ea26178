import { systemContext } from '../../../commands/command-handler.js'
import { queueRankCheck } from '../../../commands/search/rank-checks/checks.js'
import { cadenceIsDue, utcDay } from '../../../domain/search/rank-checks/cadence.js'
import { RankFrequency } from '../../../domain/search/rank-checks/events.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { cadencedClients } from '../../../projections/search/rank-checks/queries.js'
import type { ProcessorDeps } from '../../runtime.js'
import { sandboxOrgId } from '../../sandbox-fiction.js'

/**
 * One pass of the cadence scheduler: for each active client whose cadence is on and due today (UTC, by the
 * system's clock), queue a check. The read models only pick the candidates; whether a check is due is decided
 * again on the client's checks stream, so two schedulers (two processes) never queue two. The public sandbox's
 * cadence is fiction: its organization is left alone, so no provider call is ever spent on it. Returns the
 * checks queued.
 */
export async function queueDueRankChecks(deps: ProcessorDeps): Promise<number> {
  const today = utcDay(deps.write.clock())
  const sandboxOrg = await sandboxOrgId(deps.store)
  let queued = 0
  for (const candidate of await cadencedClients(deps.read)) {
    if (candidate.org_id === sandboxOrg) continue
    const frequency = RankFrequency.safeParse(candidate.frequency)
    if (!frequency.success || !cadenceIsDue(frequency.data, candidate.last_date, today)) continue
    try {
      const check = await queueRankCheck(deps.write, systemContext('rank-check-scheduler'), {
        callerOrgId: null,
        clientId: candidate.client_id,
        trigger: 'cadence',
        due: frequency.data,
      })
      if (check?.created) queued++
    } catch (error) {
      // A client deleted since the read models showed it: nothing to queue. Others go on.
      if (!(error instanceof DomainError)) throw error
      deps.log.warn({ err: error, client_id: candidate.client_id }, 'rank check scheduler: could not queue a check')
    }
  }
  if (queued > 0) deps.log.info({ queued }, 'rank checks queued by cadence')
  return queued
}
