import { agent, agentKey, agentStream, AGENT_SEEN_INTERVAL_MS, sameCapabilities, type Capabilities } from '../../domain/aeo/runs/agent.js'
import type { AeoAgentEvent } from '../../domain/aeo/runs/events.js'
import type { AgentRef } from '../../domain/aeo/runs/run.js'
import type { CommandContext } from '../command-handler.js'
import { WrongExpectedRevisionError } from '../event-store/port.js'
import { appendDecided, loadStream } from './append.js'
import type { RunDeps } from './runs.js'

const MAX_ATTEMPTS = 8

/** The agent's read-model row, as far as a check-in needs it. */
export interface AgentRow {
  readonly engines: readonly string[]
  readonly geo: string
  readonly max_per_day: number | null
  readonly last_seen_at: Date
}

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
export async function checkInAgent(deps: RunDeps, context: CommandContext, ref: AgentRef, capabilities: Capabilities, row?: AgentRow | null): Promise<void> {
  const now = deps.clock()
  const current = row === undefined ? await deps.read.selectFrom('aeo_agents').selectAll().where('agent_key', '=', agentKey(ref)).executeTakeFirst() : (row ?? undefined)
  if (checkInIsCurrent(current, capabilities, now)) return
  const stream = agentStream(ref)
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadStream(deps, stream)
    let state = agent.initialState()
    for (const event of loaded.events) {
      state = agent.evolveAt(state, { type: event.type, data: event.data } as AeoAgentEvent, event.metadata?.occurred_at ?? event.recordedAt.toISOString())
    }
    const events = agent.decide({ type: 'CheckIn', agent: ref, capabilities, now: now.toISOString() }, state)
    if (events.length === 0) return
    try {
      await appendDecided(deps, context, stream, events, loaded.revision ?? 'no_stream', ref.agent_org_id)
      return
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error
    }
  }
}
