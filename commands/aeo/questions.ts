import { assertVisible, type ClientState } from '../../domain/clients/client.js'
import type { AeoQuestionEvent } from '../../domain/aeo/questions/events.js'
import { generateQuestions } from '../../domain/aeo/questions/generate.js'
import {
  findByKey,
  liveQuestions,
  questionSet,
  type NewQuestion,
  type QuestionChanges,
  type QuestionSetCommand,
  type QuestionSetState,
} from '../../domain/aeo/questions/question-set.js'
import { promptKey } from '../../domain/aeo/prompt.js'
import { trackerStream } from '../../domain/aeo/tracker/tracker.js'
import type { Engine } from '../../domain/aeo/engines.js'
import { DomainError } from '../../domain/shared/errors.js'
import { loadClient } from '../clients.js'
import { loadState, handleCommand, type CommandContext, type CommandOutcome, type WriteDeps } from '../command-handler.js'
import { decode } from '../event-store/decode.js'
import type { Position } from '../event-store/port.js'

type Outcome = CommandOutcome<QuestionSetState, AeoQuestionEvent>
type Caller = { readonly callerOrgId: number | null }

/** The client's question set, folded from its stream (deleted and merged questions included, marked). */
export async function loadQuestionSet(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<QuestionSetState> {
  return loadState(deps.store, questionSet, clientId)
}

/** The client the caller may write questions for: visible (else not_found) and not deleted (client_deleted). */
async function writableClient(deps: Pick<WriteDeps, 'store'>, callerOrgId: number | null, clientId: number): Promise<ClientState> {
  const state = await loadClient(deps.store, clientId)
  assertVisible(state, callerOrgId, clientId)
  if (state.status === 'deleted') throw new DomainError('client_deleted', 'The client is deleted', `client ${clientId}`)
  return state
}

/** Every question event carries the client's organization, so `ops replay --org` shows the question set. */
function run(deps: WriteDeps, context: CommandContext, owner: ClientState, command: QuestionSetCommand): Promise<Outcome> {
  return handleCommand(deps, { aggregate: questionSet, id: owner.id, command, context, orgId: owner.orgId })
}

/** add_aeo_query: get-or-create by normalized prompt across engines; the id of the new or existing question. */
export async function addQuestion(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; prompt: string; engine: Engine },
): Promise<{ queryId: number; created: boolean; position: Position | null }> {
  const owner = await writableClient(deps, input.callerOrgId, input.clientId)
  const existing = findByKey(await loadQuestionSet(deps, input.clientId), promptKey(input.prompt))
  if (existing) return { queryId: existing.id, created: false, position: null }
  const queryId = await deps.ids.next('aeo_query')
  const question: NewQuestion = {
    query_id: queryId,
    prompt: input.prompt,
    engine: input.engine,
    service: '',
    location: '',
    kind: 'custom',
    priority: 50,
    active: true,
    source: 'manual',
  }
  const outcome = await run(deps, context, owner, {
    type: 'AddQuestions',
    client_id: input.clientId,
    questions: [question],
    overflow: 'refuse',
  })
  // A concurrent add of the same prompt may have won between the look and the append.
  const found = findByKey(outcome.state, promptKey(input.prompt))!
  return { queryId: found.id, created: found.id === queryId, position: outcome.position }
}

export interface GenerateResult {
  /** Questions added by this call. */
  readonly added: number
  /** Live questions of the client after it. */
  readonly total: number
  /** The generated set (new and already present), highest priority first. */
  readonly queryIds: number[]
  readonly position: Position | null
}

/** generate_aeo_questions: adds whatever of the generated set is missing (up to the per-client cap). */
export async function generateClientQuestions(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number },
): Promise<GenerateResult> {
  const owner = await writableClient(deps, input.callerOrgId, input.clientId)
  const generated = generateQuestions({
    clientName: owner.name,
    services: owner.services.map((s) => s.name),
    locations: owner.locations.map((l) => ({ name: l.name, city: l.city })),
  })
  const before = await loadQuestionSet(deps, input.clientId)
  const missing = generated.filter((q) => !findByKey(before, promptKey(q.prompt)))
  const ids = await deps.ids.nextMany('aeo_query', missing.length)
  const questions: NewQuestion[] = missing.map((q, i) => ({
    query_id: ids[i]!,
    prompt: q.prompt,
    engine: 'chatgpt-web',
    service: q.service,
    location: q.location,
    kind: q.kind,
    priority: q.priority,
    active: true,
    source: 'generated',
  }))
  let state = before
  let position: Position | null = null
  let added = 0
  if (questions.length > 0) {
    const outcome = await run(deps, context, owner, { type: 'AddQuestions', client_id: input.clientId, questions, overflow: 'truncate' })
    state = outcome.state
    position = outcome.position
    added = outcome.events.length
  }
  const queryIds = generated.map((q) => findByKey(state, promptKey(q.prompt))?.id).filter((id): id is number => id !== undefined)
  return { added, total: liveQuestions(state).length, queryIds, position }
}

/** update_aeo_query: only the fields given; a prompt that normalizes like another question's is refused. */
export async function updateQuestion(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; queryId: number; changes: QuestionChanges },
): Promise<Outcome> {
  const owner = await writableClient(deps, input.callerOrgId, input.clientId)
  return run(deps, context, owner, { type: 'UpdateQuestion', client_id: input.clientId, query_id: input.queryId, ...input.changes })
}

/**
 * The questions the log shows captures for: every AeoCaptureTracked on the client's tracker stream (one per
 * capture, appended right after it), followed through merges to the canonical question, which inherits
 * them. The log rather than the captures read model, which may not show a capture yet (the server agent
 * ingests without waiting for the projections).
 */
export async function capturedInLog(deps: Pick<WriteDeps, 'store'>, clientId: number, set: QuestionSetState): Promise<Set<number>> {
  const mergedInto = new Map(set.questions.map((q) => [q.id, q.merged_into]))
  const captured = new Set<number>()
  for await (const recorded of deps.store.readStream(trackerStream(clientId))) {
    const event = decode(recorded)
    if (event.type !== 'AeoCaptureTracked') continue
    let id: number | null | undefined = event.data.query_id
    for (let hops = 0; id !== null && id !== undefined && hops < 32; hops++) {
      captured.add(id)
      id = mergedInto.get(id)
    }
  }
  return captured
}

/**
 * delete_aeo_query: true when the question was deleted; false when it has captures and was deactivated
 * instead (or already was). "Has captures" is decided from the log (capturedInLog), or `captured` (the
 * captures read model) when that already says so.
 *
 * The window that remains: an ingest that checked the question before this delete and appends its capture
 * after it. Closing it would need ingest and delete to decide on one stream (a "first capture" event on
 * the question set); it spans a few milliseconds of one ingest, and its effect is bounded: the capture is
 * kept, with its own analysis, and only loses its question's service grouping in reports.
 */
export async function deleteQuestion(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; queryId: number; captured: boolean },
): Promise<{ deleted: boolean; position: Position | null }> {
  const owner = await writableClient(deps, input.callerOrgId, input.clientId)
  const captured =
    input.captured || (await capturedInLog(deps, input.clientId, await loadQuestionSet(deps, input.clientId))).has(input.queryId)
  const outcome = await run(deps, context, owner, { type: 'DeleteQuestion', client_id: input.clientId, query_id: input.queryId, captured })
  return { deleted: outcome.events.some((e) => e.type === 'AeoQuestionDeleted'), position: outcome.position }
}

/**
 * delete_aeo_queries_for_client: deletes every live question except `keep`; the number deleted. With
 * `keepCaptured`, the questions the log shows captures for are kept too (see deleteQuestion).
 */
export async function deleteClientQuestions(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; keep: readonly number[]; keepCaptured?: boolean },
): Promise<{ deleted: number; position: Position | null }> {
  const owner = await writableClient(deps, input.callerOrgId, input.clientId)
  const keep = input.keepCaptured
    ? [...new Set([...input.keep, ...(await capturedInLog(deps, input.clientId, await loadQuestionSet(deps, input.clientId)))])]
    : input.keep
  const outcome = await run(deps, context, owner, { type: 'DeleteQuestions', client_id: input.clientId, keep })
  return { deleted: outcome.events.length, position: outcome.position }
}

export interface MergeGroup {
  readonly canonical_id: number
  readonly merged_ids: number[]
}

/** dedupe_aeo_queries: merges questions whose prompts normalize alike into the oldest of each group. */
export async function dedupeQuestions(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number },
): Promise<{ groups: MergeGroup[]; total: number; position: Position | null }> {
  const owner = await writableClient(deps, input.callerOrgId, input.clientId)
  const outcome = await run(deps, context, owner, { type: 'MergeDuplicates', client_id: input.clientId })
  const groups = outcome.events.flatMap((e) =>
    e.type === 'AeoQuestionsMerged' ? [{ canonical_id: e.data.canonical_id, merged_ids: [...e.data.merged_ids] }] : [],
  )
  return { groups, total: liveQuestions(outcome.state).length, position: outcome.position }
}
