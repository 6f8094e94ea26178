import { rankCadence, type RankCadenceState } from '../../../domain/search/rank-checks/cadence.js'
import type { RankFrequency } from '../../../domain/search/rank-checks/events.js'
import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'

/** The client's rank-check cadence, from its stream (frequency off and both devices when never set). */
export function loadRankCadence(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<RankCadenceState> {
  return loadState(deps.store, rankCadence, clientId)
}

/**
 * set_rank_cadence: how often checks are queued for the client and for which devices; `off` stops queueing
 * (an open check still runs). A deleted client answers client_deleted, another organization's not_found.
 */
export async function setRankCadence(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; frequency: RankFrequency; devices: readonly RankDevice[] },
): Promise<{ cadence: RankCadenceState; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: rankCadence,
    id: owner.id,
    command: { type: 'SetRankCadence', client_id: owner.id, frequency: input.frequency, devices: input.devices },
    context,
    orgId: owner.orgId,
  })
  return { cadence: outcome.state, position: outcome.position }
}
