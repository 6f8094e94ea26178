import { systemContext } from '../../../commands/command-handler.js'
import { setCooldown } from '../../../commands/monitoring/cooldowns.js'
import type { Position } from '../../../commands/event-store/port.js'
import type { ScanRef } from '../../../commands/monitoring/scans.js'
import { recentServiceScanStatuses } from '../../../projections/monitoring/scans/queries.js'
import type { ProcessorDeps } from '../../runtime.js'

/** Failed service scans in a row after which the client's scans wait (a site that keeps failing is not hammered). */
export const FAILURES_BEFORE_COOLDOWN = 3

/**
 * After a scan failed: when the client's last FAILURES_BEFORE_COOLDOWN service scans all failed, set its
 * `scan_failures` cooldown (its default length, domain/monitoring/cooldowns), so neither the cadence nor a manual start scans it again
 * until it ends or an operator clears it. Read from the read model once it shows this failure.
 */
export async function coolDownAfterFailures(deps: ProcessorDeps, scan: ScanRef, position: Position | null): Promise<boolean> {
  if (position !== null) await deps.watermark.waitFor(position, 5_000)
  const statuses = await recentServiceScanStatuses(deps.read, scan.clientId, FAILURES_BEFORE_COOLDOWN)
  if (statuses.length < FAILURES_BEFORE_COOLDOWN || statuses.some((s) => s !== 'failed')) return false
  await setCooldown(deps.write, systemContext('site-scan-runner'), {
    callerOrgId: null,
    clientId: scan.clientId,
    reason: 'scan_failures',
    note: `${FAILURES_BEFORE_COOLDOWN} scans in a row failed (the last: scan ${scan.scanId})`,
  })
  deps.log.warn({ client_id: scan.clientId, site_scan_id: scan.scanId }, 'site scans: failures in a row, the client cools down')
  return true
}
