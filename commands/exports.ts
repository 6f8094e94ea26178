import { orgExport, type OrgExportState, type ProducedExport } from '../domain/exports/org-export.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

/** The export a job recorded (its stream folded), or null when it recorded none. */
export async function loadOrgExport(deps: WriteDeps, jobId: number): Promise<OrgExportState> {
  return loadState(deps.store, orgExport, jobId)
}

/**
 * Records a produced export (OrgExportProduced on `org_export-<job_id>`), after its file is stored. A job
 * that already recorded its export records nothing; the state says what was recorded.
 */
export async function recordOrgExport(
  deps: WriteDeps,
  context: CommandContext,
  produced: ProducedExport,
): Promise<{ state: OrgExportState; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: orgExport,
    id: produced.job_id,
    command: { type: 'RecordExport', export: produced },
    context,
    orgId: produced.org_id,
  })
  return { state: outcome.state, position: outcome.position }
}

/** OrgExportExpired once the retention has passed (decided against the write clock); nothing otherwise. */
export async function expireOrgExport(
  deps: WriteDeps,
  context: CommandContext,
  jobId: number,
  orgId: number,
): Promise<{ expired: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: orgExport,
    id: jobId,
    command: { type: 'ExpireExport', now: deps.clock() },
    context,
    orgId,
  })
  return { expired: outcome.events.length > 0, position: outcome.position }
}
