import type { ClientState } from '../../../domain/clients/client.js'
import { deriveInsights } from '../../../domain/search/insights/derive.js'
import type { SeoInsightEvent } from '../../../domain/search/insights/events.js'
import {
  isStale,
  newFindingCount,
  seoInsightSet,
  type InsightSetCommand,
  type InsightSetState,
} from '../../../domain/search/insights/insight-set.js'
import type { SettableInsightStatus } from '../../../domain/search/insights/kinds.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type CommandOutcome, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import type { InsightReads } from './reads.js'

type Outcome = CommandOutcome<InsightSetState, SeoInsightEvent>

/** The client's live insights, folded from its stream. */
export function loadInsightSet(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<InsightSetState> {
  return loadState(deps.store, seoInsightSet, clientId)
}

/** Every insight event carries the client's organization, so `ops replay --org` and the export include it. */
function run(
  deps: WriteDeps,
  context: CommandContext,
  owner: ClientState,
  command: InsightSetCommand | ((state: InsightSetState) => Promise<InsightSetCommand>),
): Promise<Outcome> {
  return handleCommand(deps, { aggregate: seoInsightSet, id: owner.id, command, context, orgId: owner.orgId })
}

export interface RefreshResult {
  readonly raised: number
  readonly resolved: number
  /** Insights that hold after the refresh (open, applied or dismissed). */
  readonly live: number
  readonly position: Position | null
}

/**
 * refresh_seo_insights and the insights processor: derives the client's findings from the read models and
 * records what is new (SeoInsightRaised) and what no longer holds (SeoInsightResolved), in one decision on
 * the client's insight stream. Running it again on the same data records nothing, and so does a refresh
 * whose inputs were read before those of the last one that recorded something (a slow refresh never undoes
 * a newer one). Ids are allocated for each attempt's new findings (a retried decision may leave a few
 * unused, never a duplicate insight).
 */
export async function refreshSeoInsights(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; callerOrgId: number | null; reads: InsightReads },
): Promise<RefreshResult> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  // Taken before the read: the inputs are at least this fresh, which is what orders two refreshes.
  const readAt = deps.clock().toISOString()
  const findings = deriveInsights(await input.reads.inputsFor(owner.id))
  const outcome = await run(deps, context, owner, async (state) => ({
    type: 'RefreshInsights',
    client_id: owner.id,
    findings,
    new_ids: await deps.ids.nextMany('seo_insight', isStale(state, readAt) ? 0 : newFindingCount(state, findings)),
    read_at: readAt,
  }))
  return {
    raised: outcome.events.filter((e) => e.type === 'SeoInsightRaised').length,
    resolved: outcome.events.filter((e) => e.type === 'SeoInsightResolved').length,
    live: outcome.state.live.size,
    position: outcome.position,
  }
}

/** update_seo_insight: applied, dismissed or open again. The same status again records nothing. */
export async function changeSeoInsightStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; callerOrgId: number | null; insightId: number; status: SettableInsightStatus; note: string },
): Promise<{ changed: boolean; position: Position | null }> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await run(deps, context, owner, {
    type: 'ChangeInsightStatus',
    client_id: owner.id,
    insight_id: input.insightId,
    status: input.status,
    note: input.note,
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}
