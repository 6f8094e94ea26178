import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import type { Engine } from '../engines.js'
import type { AeoAgentEvent } from './events.js'
import type { AgentRef } from './run.js'

/**
 * An agent that claims runs (an operator device, or the built-in server-API agent): stream
 * `aeo_agent-<owner>-<agent_id>`, owner being the organization of the key that registered it, or
 * `platform`. The same agent_id under two organizations is two agents.
 */
export const agentOwner = (agentOrgId: number | null) => (agentOrgId === null ? 'platform' : String(agentOrgId))
export const agentStream = (agent: AgentRef) => `aeo_agent-${agentOwner(agent.agent_org_id)}-${agent.agent_id}`
/** The agent's key in the read model (aeo_agents.agent_key) and in claim leases. */
export const agentKey = (agent: AgentRef) => `${agentOwner(agent.agent_org_id)}:${agent.agent_id}`

/** An agent sends AeoAgentSeen at most this often; online is decided by the read side (settings.agentOnlineSeconds). */
export const AGENT_SEEN_INTERVAL_MS = 60_000

export interface Capabilities {
  readonly engines: readonly Engine[]
  /** A state such as `TX`, or `any`. */
  readonly geo: string
  readonly max_per_day: number | null
}

export interface AgentState {
  readonly exists: boolean
  readonly capabilities: Capabilities | null
  readonly lastSeenAt: string | null
}

/** The agent checks in (every claim): registers it, records changed capabilities, marks it seen (at most once a minute). */
export type AgentCommand = { type: 'CheckIn'; agent: AgentRef; capabilities: Capabilities; now: string }

const initialState = (): AgentState => ({ exists: false, capabilities: null, lastSeenAt: null })

const copy = (c: Capabilities): { engines: Engine[]; geo: string; max_per_day: number | null } => ({
  engines: [...c.engines],
  geo: c.geo,
  max_per_day: c.max_per_day,
})

/**
 * "Last seen" is the recorded event's occurred_at: the events carry no time of their own. An event just
 * decided (no metadata yet) keeps the time the state had.
 */
function evolve(state: AgentState, event: Evolving<AeoAgentEvent>): AgentState {
  const at = event.metadata?.occurred_at ?? state.lastSeenAt
  switch (event.type) {
    case 'AeoAgentRegistered':
      return { exists: true, capabilities: copy(event.data.capabilities), lastSeenAt: at }
    case 'AeoAgentCapabilitiesChanged':
      return { ...state, capabilities: copy(event.data.capabilities), lastSeenAt: at }
    case 'AeoAgentSeen':
      return { ...state, lastSeenAt: at }
  }
}

export function sameCapabilities(a: Capabilities | null, b: Capabilities): boolean {
  return (
    a !== null &&
    a.geo === b.geo &&
    a.max_per_day === b.max_per_day &&
    a.engines.length === b.engines.length &&
    a.engines.every((e, i) => e === b.engines[i])
  )
}

function decide(command: AgentCommand, state: AgentState): AeoAgentEvent[] {
  const agent = { agent_id: command.agent.agent_id, agent_org_id: command.agent.agent_org_id }
  const capabilities = copy(command.capabilities)
  if (!state.exists) return [{ type: 'AeoAgentRegistered', data: { ...agent, capabilities } }]
  if (!sameCapabilities(state.capabilities, capabilities))
    return [{ type: 'AeoAgentCapabilitiesChanged', data: { ...agent, capabilities } }]
  if (state.lastSeenAt !== null && Date.parse(command.now) - Date.parse(state.lastSeenAt) < AGENT_SEEN_INTERVAL_MS) return []
  return [{ type: 'AeoAgentSeen', data: agent }]
}

/** The agent aggregate: decide compares the time it was last seen (from metadata) with the command's `now`. */
export const agent: Aggregate<AgentState, AgentCommand, AeoAgentEvent, AgentRef> = {
  streamOf: agentStream,
  initialState,
  evolve,
  decide,
}
