import { orgExport, orgExportStream, type OrgExportState, type ProducedExport } from '../domain/exports/org-export.js'
import { handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'
import { loadStream } from './aeo/append.js'
import type { OrgExportEvent } from '../domain/exports/events.js'
import { fold } from '../domain/shared/aggregate.js'

/** The export a job recorded (its stream folded), or null when it recorded none. */
export async function loadOrgExport(deps: WriteDeps, jobId: number): Promise<OrgExportState> {
  const loaded = await loadStream(deps, orgExportStream(jobId))
  return fold(orgExport, loaded.events.map((e) => ({ type: e.type, data: e.data }) as OrgExportEvent))
}

/**
 * Records a produced export (OrgExportProduced on `org_export-<job_id>`), after its file is stored. A job
 * that already recorded its export records nothing; the state says what was recorded.
 */
export async function recordOrgExport(deps: WriteDeps, context: CommandContext, produced: ProducedExport): Promise<{ state: OrgExportState; position: Position | null }> {
  const outcome = await handleCommand(deps, orgExport, orgExportStream(produced.job_id), { type: 'RecordExport', export: produced }, context, () => produced.org_id)
  return { state: outcome.state, position: outcome.position }
}

/** OrgExportExpired once the retention has passed (decided against the write clock); nothing otherwise. */
export async function expireOrgExport(deps: WriteDeps, context: CommandContext, jobId: number, orgId: number): Promise<{ expired: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, orgExport, orgExportStream(jobId), { type: 'ExpireExport', now: deps.clock() }, context, () => orgId)
  return { expired: outcome.events.length > 0, position: outcome.position }
}
