import type { AnalysisClient, AnalysisQuestion } from '../../domain/aeo/analysis/analyze.js'
import { capture, type CaptureCommand, type CaptureState } from '../../domain/aeo/captures/capture.js'
import { assertVisible, type ClientState } from '../../domain/clients/client.js'
import { DomainError } from '../../domain/shared/errors.js'
import { loadClient } from '../clients.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { EventStore } from '../event-store/port.js'
import { loadQuestionSet } from './questions.js'

/*
 * What ingesting a capture and tracking it both read: the client, its questions, the capture itself. Its own
 * module so that captures.ts (ingest, which then tracks) and tracker.ts (which re-reads captures) both import
 * it rather than each other.
 */

/** The client, visible to the caller and not deleted (writes on a deleted client are refused). */
export async function writableClient(store: EventStore, clientId: number, callerOrgId: number | null): Promise<ClientState> {
  const state = await loadClient(store, clientId)
  assertVisible(state, callerOrgId, clientId)
  if (state.status === 'deleted') throw new DomainError('client_deleted', 'The client is deleted', `client ${clientId}`)
  return state
}

export function analysisClient(state: ClientState): AnalysisClient {
  return {
    name: state.name,
    websiteUrl: state.websiteUrl,
    services: state.services.map((s) => s.name),
    locations: state.locations.map((l) => l.name),
  }
}

export interface QuestionFacts extends AnalysisQuestion {
  readonly id: number
  readonly deleted: boolean
  /** Set when dedupe merged this question into another. */
  readonly mergedInto: number | null
}

/**
 * The client's questions, from the questions part's question set (deleted and merged ones included), so
 * a capture can name its question's prompt, service, location and kind, and merged ids can be followed to
 * their canonical question.
 */
export async function loadQuestionFacts(store: EventStore, clientId: number): Promise<Map<number, QuestionFacts>> {
  const set = await loadQuestionSet({ store }, clientId)
  return new Map(
    set.questions.map((q) => [
      q.id,
      { id: q.id, prompt: q.prompt, service: q.service, location: q.location, kind: q.kind, deleted: q.deleted, mergedInto: q.merged_into },
    ]),
  )
}

/** A merged question's canonical id (following chains of merges). */
export function canonicalQuestion(questions: ReadonlyMap<number, QuestionFacts>, queryId: number): number {
  let id = queryId
  for (let hops = 0; hops < 32; hops++) {
    const next = questions.get(id)?.mergedInto
    if (next === null || next === undefined) return id
    id = next
  }
  return id
}

export function runCapture(deps: WriteDeps, context: CommandContext, captureId: number, orgId: number, command: CaptureCommand) {
  return handleCommand(deps, { aggregate: capture, id: captureId, command, context, orgId })
}

export async function loadCapture(store: EventStore, captureId: number): Promise<CaptureState> {
  return loadState(store, capture, captureId)
}
