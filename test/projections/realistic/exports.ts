import { systemContext } from '../../../commands/command-handler.js'
import { expireOrgExport, recordOrgExport } from '../../../commands/exports.js'
import { exportExpiresAt, exportFilename, exportPath } from '../../../domain/exports/org-export.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The exports part of the realistic log: two exports of organization A as export_org records them, and the
 * older one expired by the sweep (decided against the write clock, so it is produced far in the past).
 */
export async function writeExportsLog(ts: TestSystem, log: RealisticLog): Promise<void> {
  const orgA = (log.orgIds as number[])[0]!
  const context = systemContext('job-exports')
  const produce = async (jobId: number, createdAt: Date) => {
    const filename = exportFilename(orgA, jobId, createdAt)
    await recordOrgExport(ts.system.write, context, {
      job_id: jobId,
      org_id: orgA,
      filename,
      path: exportPath(orgA, filename),
      size: 12_345,
      sha256: 'a'.repeat(64),
      tables: 27,
      rows: 410,
      position: '42',
      created_at: createdAt.toISOString(),
      expires_at: exportExpiresAt(createdAt).toISOString(),
    })
  }
  await produce(880_001, new Date('2020-01-01T00:00:00.000Z'))
  await produce(880_002, ts.system.write.clock())
  await expireOrgExport(ts.system.write, systemContext('export-expiry'), 880_001, orgA)
}
