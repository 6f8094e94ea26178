import { isDeepStrictEqual } from 'node:util'
import { analyze, ANALYSIS_VERSION, type Finding } from '../../domain/aeo/analysis/analyze.js'
import type { Engine } from '../../domain/aeo/engines.js'
import type { AeoTrackerEvent } from '../../domain/aeo/tracker/events.js'
import {
  tracker,
  type AnalyzedCapture,
  type ItemStatusValue,
  type TrackerCommand,
  type TrackerState,
} from '../../domain/aeo/tracker/tracker.js'
import { assertVisible } from '../../domain/clients/client.js'
import { loadClient } from '../clients.js'
import { loadState, handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from '../command-handler.js'
import type { EventStore, Position } from '../event-store/port.js'
import { analysisClient, canonicalQuestion, loadCapture, loadQuestionFacts, runCapture, writableClient } from './capture-facts.js'

type Outcome = CommandOutcome<TrackerState, AeoTrackerEvent>

function run(deps: WriteDeps, context: CommandContext, clientId: number, orgId: number, command: TrackerCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: tracker, id: clientId, command, context, orgId })
}

export async function loadTracker(store: EventStore, clientId: number): Promise<TrackerState> {
  return loadState(store, tracker, clientId)
}

/** Decides new / carried / resolved for one analyzed capture (AeoCaptureTracked). */
export async function trackCapture(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    clientId: number
    orgId: number
    captureId: number
    queryId: number
    engine: Engine
    month: string
    scorecard: Record<string, unknown>
    findings: readonly Finding[]
  },
): Promise<Outcome> {
  const newIds = await deps.ids.nextMany('aeo_item', input.findings.length)
  return run(deps, context, input.clientId, input.orgId, {
    type: 'TrackCapture',
    client_id: input.clientId,
    capture_id: input.captureId,
    query_id: input.queryId,
    engine: input.engine,
    month: input.month,
    scorecard: input.scorecard,
    findings: input.findings,
    new_item_ids: newIds,
  })
}

type Caller = { readonly callerOrgId: number | null }

/** Sets an item's status (and note); an item of another client answers like a missing one. */
export async function updateItemStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; itemId: number; status: ItemStatusValue; note?: string | undefined },
): Promise<Outcome> {
  const client = await loadClient(deps.store, input.clientId)
  assertVisible(client, input.callerOrgId, input.clientId)
  return run(deps, context, input.clientId, client.orgId, {
    type: 'ChangeItemStatus',
    client_id: input.clientId,
    item_id: input.itemId,
    status: input.status,
    note: input.note,
  })
}

/** Removes every tracker item of the client; returns how many. */
export async function deleteItemsForClient(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number },
): Promise<{ deleted: number; position: Position | null }> {
  const client = await loadClient(deps.store, input.clientId)
  assertVisible(client, input.callerOrgId, input.clientId)
  const outcome = await run(deps, context, input.clientId, client.orgId, { type: 'DeleteItems', client_id: input.clientId })
  const event = outcome.events[0]
  return { deleted: event?.type === 'AeoItemsDeleted' ? event.data.item_ids.length : 0, position: outcome.position }
}

export interface ReanalyzeSummary {
  client_id: number
  analysis_version: number
  /** Captures re-analyzed. */
  captures: number
  /** Captures whose report changed. */
  changed: number
  /** Items after the rebuild. */
  items: number
  /** Items whose key survived (status and note kept). */
  kept: number
  /** Items new with this analysis. */
  opened: number
  /** Items no capture finds any more (removed). */
  removed: number
}

/**
 * Re-runs the current analysis over every capture of the client (AeoCaptureReanalyzed per capture), then
 * rebuilds the tracker from the new findings (AeoTrackerRebuilt), keeping the status and note of every
 * item whose key survives. `captureIds` adds captures the caller knows of (the read model) to those the
 * tracker has seen.
 */
export async function reanalyzeClient(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; captureIds?: readonly number[] },
): Promise<{ summary: ReanalyzeSummary; position: Position | null }> {
  const clientState = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const questions = await loadQuestionFacts(deps.store, input.clientId)
  const before = await loadTracker(deps.store, input.clientId)
  const ids = [...new Set([...before.captures, ...(input.captureIds ?? [])])].sort((a, b) => a - b)
  const client = analysisClient(clientState)
  const analyzed: AnalyzedCapture[] = []
  let changed = 0
  let position: Position | null = null
  for (const captureId of ids) {
    const state = await loadCapture(deps.store, captureId)
    const c = state.capture
    if (!c || c.client_id !== input.clientId) continue
    const queryId = canonicalQuestion(questions, c.query_id)
    // The prompt actually asked (a merged question keeps its facts); hits count under the canonical id.
    const q = questions.get(c.query_id) ?? questions.get(queryId)
    const question = q ?? { prompt: '', service: '', location: '', kind: 'custom' }
    const report = analyze({ answerText: c.answer_text, citations: c.citations, retrieved: c.retrieved, client, question })
    if (c.analysis_version !== ANALYSIS_VERSION || !isDeepStrictEqual(c.report, JSON.parse(JSON.stringify(report)))) changed++
    const outcome = await runCapture(deps, context, captureId, clientState.orgId, {
      type: 'ReanalyzeCapture',
      capture_id: captureId,
      analysis_version: ANALYSIS_VERSION,
      report,
    })
    position = outcome.position ?? position
    analyzed.push({ capture_id: captureId, query_id: queryId, engine: c.engine, month: c.month, findings: report.findings })
  }
  const keys = new Set(analyzed.flatMap((a) => a.findings.map((f) => f.item_key)))
  const newIds = await deps.ids.nextMany('aeo_item', keys.size)
  const outcome = await run(deps, context, input.clientId, clientState.orgId, {
    type: 'RebuildTracker',
    client_id: input.clientId,
    analysis_version: ANALYSIS_VERSION,
    captures: analyzed,
    new_item_ids: newIds,
  })
  const kept = [...keys].filter((k) => before.items.has(k)).length
  return {
    summary: {
      client_id: input.clientId,
      analysis_version: ANALYSIS_VERSION,
      captures: analyzed.length,
      changed,
      items: keys.size,
      kept,
      opened: keys.size - kept,
      removed: [...before.items.keys()].filter((k) => !keys.has(k)).length,
    },
    position: outcome.position ?? position,
  }
}
