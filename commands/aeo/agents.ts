import { agent, agentKey, AGENT_SEEN_INTERVAL_MS, sameCapabilities, type Capabilities } from '../../domain/aeo/runs/agent.js'
import type { AgentRef } from '../../domain/aeo/runs/run.js'
import { handleCommand, type CommandContext } from '../command-handler.js'
import type { AgentRow } from './run-queue-reads.js'
import type { RunDeps } from './runs.js'

/** True when a check-in has nothing to record: the agent is known, seen within the minute, same capabilities. */
export function checkInIsCurrent(row: AgentRow | undefined, capabilities: Capabilities, now: Date): boolean {
  return (
    row !== undefined &&
    now.getTime() - row.last_seen_at.getTime() < AGENT_SEEN_INTERVAL_MS &&
    sameCapabilities({ engines: row.engines as Capabilities['engines'], geo: row.geo, max_per_day: row.max_per_day }, capabilities)
  )
}

/**
 * An agent checks in on every claim: registered the first time, capabilities recorded when they change,
 * AeoAgentSeen at most once a minute. The read model answers the common case (nothing to record) without
 * reading the agent's stream; the stream decides the rest. `row`: the read-model row when the caller read it
 * already (the claim does, in its selection statement), so that the common case costs no statement here.
 */
export async function checkInAgent(
  deps: RunDeps,
  context: CommandContext,
  ref: AgentRef,
  capabilities: Capabilities,
  row?: AgentRow | null,
): Promise<void> {
  const now = deps.clock()
  const current = row === undefined ? await deps.reads.agent(agentKey(ref)) : (row ?? undefined)
  if (checkInIsCurrent(current, capabilities, now)) return
  // The agent's events name the organization of the key that registered it, as its stream does.
  await handleCommand(deps, {
    aggregate: agent,
    id: ref,
    command: { type: 'CheckIn', agent: ref, capabilities, now: now.toISOString() },
    context,
    orgId: ref.agent_org_id,
  })
}
