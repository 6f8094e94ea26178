import type { PageRendered } from '../../domain/monitoring/renders/events.js'
import { scanRenders, type ScanRendersState } from '../../domain/monitoring/renders/scan-renders.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/** What a render scan already recorded, folded from its render stream (a resumed scan reads it first). */
export function loadScanRenders(deps: Pick<WriteDeps, 'store'>, scanId: number): Promise<ScanRendersState> {
  return loadState(deps.store, scanRenders, scanId)
}

/**
 * Records one rendered (or failed) URL of a render scan: PageRendered on `page_renders-<scan_id>`. A URL the
 * scan already recorded records nothing (`recorded: false`), so a retried or resumed scan never doubles one.
 */
export async function recordRender(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; render: PageRendered },
): Promise<{ recorded: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: scanRenders,
    id: input.render.scan_id,
    command: { type: 'RecordRender', render: input.render },
    context,
    orgId: input.orgId,
  })
  return { recorded: outcome.events.length > 0, position: outcome.position }
}
