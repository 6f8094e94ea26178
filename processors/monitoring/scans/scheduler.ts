import { systemContext } from '../../../commands/command-handler.js'
import { queueSiteScan } from '../../../commands/monitoring/scans.js'
import { ScanFrequency } from '../../../domain/monitoring/scans/events.js'
import { cadenceIsDue, utcDay } from '../../../domain/search/rank-checks/cadence.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { activeCooldown } from '../../../projections/monitoring/cooldowns/queries.js'
import { cadencedScanClients } from '../../../projections/monitoring/scans/queries.js'
import type { ProcessorDeps } from '../../runtime.js'
import { sandboxOrgId } from '../../sandbox-fiction.js'

/**
 * One pass of the scan cadence: for each active client whose cadence is on and due today (UTC, by the system's
 * clock), queue a scan of the cadence's type. The read models only pick candidates; whether one is due is
 * decided again on the client's scans stream, so two schedulers never queue two. A client in a cooldown that
 * holds scans back waits: it is queued at the first pass after the cooldown ends. The public sandbox's scans
 * are fiction its seeder writes: its organization is left alone. Returns the scans queued.
 */
export async function queueDueScans(deps: ProcessorDeps): Promise<number> {
  const now = deps.write.clock()
  const today = utcDay(now)
  const sandboxOrg = await sandboxOrgId(deps.store)
  let queued = 0
  for (const candidate of await cadencedScanClients(deps.read)) {
    if (candidate.org_id === sandboxOrg) continue
    const frequency = ScanFrequency.safeParse(candidate.frequency)
    if (!frequency.success || !cadenceIsDue(frequency.data, candidate.last_date, today)) continue
    if (await activeCooldown(deps.read, candidate.client_id, 'scan', now)) continue
    try {
      const scan = await queueSiteScan(deps.write, systemContext('site-scan-scheduler'), {
        callerOrgId: null,
        clientId: candidate.client_id,
        scanType: candidate.scan_type,
        trigger: 'cadence',
        due: frequency.data,
      })
      if (scan?.created) queued++
    } catch (error) {
      // A client deleted since the read models showed it: nothing to queue. Others go on.
      if (!(error instanceof DomainError)) throw error
      deps.log.warn({ err: error, client_id: candidate.client_id }, 'site scan scheduler: could not queue a scan')
    }
  }
  if (queued > 0) deps.log.info({ queued }, 'site scans queued by cadence')
  return queued
}
