import type { z } from 'zod'
import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import { promptKey } from '../prompt.js'
import type { AeoQuestionEvent, QuestionKind } from './events.js'

/**
 * A client's question set: one stream, `aeo_questions-<client_id>`, so that "one live question per
 * normalized prompt" is decided against the whole set (get-or-create, prompt edits, merges).
 */
export const questionSetStream = (clientId: number) => `aeo_questions-${clientId}`

/**
 * The most live questions one client may have. It bounds the work a cadence creates (runs are active
 * questions × engines × samples) and the size of this stream's state; generation stops short of it and a
 * manual add beyond it is refused with aeo_question_limit.
 */
export const MAX_QUESTIONS_PER_CLIENT = 500

export type Kind = z.infer<typeof QuestionKind>
export type Source = 'generated' | 'manual'

/** One question as folded from the stream. Deleted and merged questions stay, marked, so ids are never reused. */
export interface QuestionRecord {
  readonly id: number
  readonly prompt: string
  /** The key recorded when the prompt was set (older normalizations may differ from promptKey today). */
  readonly prompt_key: string
  readonly engine: string
  readonly service: string
  readonly location: string
  readonly kind: Kind
  readonly priority: number
  readonly active: boolean
  readonly source: Source
  readonly deleted: boolean
  /** The canonical question it was merged into (dedupe), or null. A merged question is also deleted. */
  readonly merged_into: number | null
}

export interface QuestionSetState {
  readonly clientId: number
  /** In the order they were added (oldest first). */
  readonly questions: readonly QuestionRecord[]
}

export interface NewQuestion {
  readonly query_id: number
  readonly prompt: string
  readonly engine: string
  readonly service: string
  readonly location: string
  readonly kind: Kind
  readonly priority: number
  readonly active: boolean
  readonly source: Source
}

export interface QuestionChanges {
  readonly active?: boolean | undefined
  readonly priority?: number | undefined
  readonly prompt?: string | undefined
  readonly service?: string | undefined
  readonly kind?: Kind | undefined
}

export type QuestionSetCommand =
  /**
   * Get-or-create each question by normalized prompt (against the live set and earlier ones in the same
   * command). `overflow` says what happens past MAX_QUESTIONS_PER_CLIENT: refuse the command, or add only
   * what fits (generation).
   */
  | { type: 'AddQuestions'; client_id: number; questions: readonly NewQuestion[]; overflow: 'refuse' | 'truncate' }
  | ({ type: 'UpdateQuestion'; client_id: number; query_id: number } & QuestionChanges)
  /** `captured`: the question has captures, so it is deactivated instead of deleted. */
  | { type: 'DeleteQuestion'; client_id: number; query_id: number; captured: boolean }
  /** Deletes every live question except `keep` (the captured ones when only uncaptured questions go). */
  | { type: 'DeleteQuestions'; client_id: number; keep: readonly number[] }
  /** Merges live questions whose prompts normalize alike into the oldest of them. */
  | { type: 'MergeDuplicates'; client_id: number }

const initialState = (): QuestionSetState => ({ clientId: 0, questions: [] })

export const liveQuestions = (state: QuestionSetState): QuestionRecord[] => state.questions.filter((q) => !q.deleted)

/** The live question with this id, or undefined (deleted and merged questions are gone). */
export function findLive(state: QuestionSetState, queryId: number): QuestionRecord | undefined {
  return state.questions.find((q) => q.id === queryId && !q.deleted)
}

/**
 * The live question whose prompt normalizes to `key`, by today's promptKey or by the key it was recorded
 * with (so a question stored under an older normalization is still found).
 */
export function findByKey(state: QuestionSetState, key: string, exceptId?: number): QuestionRecord | undefined {
  return state.questions.find((q) => !q.deleted && q.id !== exceptId && (q.prompt_key === key || promptKey(q.prompt) === key))
}

function requireKey(prompt: string): string {
  const key = promptKey(prompt)
  if (key === '') throw new DomainError('validation_failed', 'A question needs letters or digits', `prompt "${prompt}"`)
  return key
}

function patch(state: QuestionSetState, id: number, change: (q: QuestionRecord) => QuestionRecord): QuestionSetState {
  return { ...state, questions: state.questions.map((q) => (q.id === id ? change(q) : q)) }
}

function evolve(state: QuestionSetState, event: AeoQuestionEvent): QuestionSetState {
  switch (event.type) {
    case 'AeoQuestionAdded': {
      const d = event.data
      const record: QuestionRecord = {
        id: d.query_id,
        prompt: d.prompt,
        prompt_key: d.prompt_key,
        engine: d.engine,
        service: d.service,
        location: d.location,
        kind: d.kind,
        priority: d.priority,
        active: d.active,
        source: d.source,
        deleted: false,
        merged_into: null,
      }
      return { clientId: d.client_id, questions: [...state.questions, record] }
    }
    case 'AeoQuestionUpdated': {
      const d = event.data
      return patch(state, d.query_id, (q) => ({
        ...q,
        active: d.active ?? q.active,
        priority: d.priority ?? q.priority,
        prompt: d.prompt ?? q.prompt,
        prompt_key: d.prompt_key ?? q.prompt_key,
        service: d.service ?? q.service,
        kind: d.kind ?? q.kind,
      }))
    }
    case 'AeoQuestionDeleted':
      return patch(state, event.data.query_id, (q) => ({ ...q, deleted: true }))
    case 'AeoQuestionsMerged': {
      const merged = new Set(event.data.merged_ids)
      const canonical = event.data.canonical_id
      return {
        ...state,
        questions: state.questions.map((q) => (merged.has(q.id) ? { ...q, deleted: true, merged_into: canonical } : q)),
      }
    }
    default:
      return assertNever(event)
  }
}

function notFound(queryId: number): NotFoundError {
  return new NotFoundError('question', queryId)
}

function addQuestions(command: Extract<QuestionSetCommand, { type: 'AddQuestions' }>, state: QuestionSetState): AeoQuestionEvent[] {
  const events: AeoQuestionEvent[] = []
  const added = new Set<string>()
  let live = liveQuestions(state).length
  for (const q of command.questions) {
    const key = requireKey(q.prompt)
    if (added.has(key) || findByKey(state, key)) continue
    if (live >= MAX_QUESTIONS_PER_CLIENT) {
      if (command.overflow === 'truncate') break
      throw new DomainError(
        'aeo_question_limit',
        'The client has the most questions allowed',
        `${live} live questions; the cap is ${MAX_QUESTIONS_PER_CLIENT}`,
      )
    }
    added.add(key)
    live++
    events.push({
      type: 'AeoQuestionAdded',
      data: {
        client_id: command.client_id,
        query_id: q.query_id,
        prompt: q.prompt,
        prompt_key: key,
        engine: q.engine,
        service: q.service,
        location: q.location,
        kind: q.kind,
        priority: q.priority,
        active: q.active,
        source: q.source,
      },
    })
  }
  return events
}

function updateQuestion(command: Extract<QuestionSetCommand, { type: 'UpdateQuestion' }>, state: QuestionSetState): AeoQuestionEvent[] {
  const current = findLive(state, command.query_id)
  if (!current) throw notFound(command.query_id)
  const changes: Extract<AeoQuestionEvent, { type: 'AeoQuestionUpdated' }>['data'] = {
    client_id: command.client_id,
    query_id: command.query_id,
  }
  let changed = false
  if (command.prompt !== undefined && command.prompt !== current.prompt) {
    const key = requireKey(command.prompt)
    const other = findByKey(state, key, current.id)
    if (other) {
      throw new DomainError(
        'aeo_question_conflict',
        'Another question of the client has this prompt',
        `question ${other.id} has the same normalized prompt`,
      )
    }
    changes.prompt = command.prompt
    changes.prompt_key = key
    changed = true
  }
  if (command.active !== undefined && command.active !== current.active) {
    changes.active = command.active
    changed = true
  }
  if (command.priority !== undefined && command.priority !== current.priority) {
    changes.priority = command.priority
    changed = true
  }
  if (command.service !== undefined && command.service !== current.service) {
    changes.service = command.service
    changed = true
  }
  if (command.kind !== undefined && command.kind !== current.kind) {
    changes.kind = command.kind
    changed = true
  }
  return changed ? [{ type: 'AeoQuestionUpdated', data: changes }] : []
}

/**
 * Groups of live questions whose prompts normalize alike today, each oldest first. The canonical row is the
 * oldest; it stays active if any row of the group was (a merge never stops measuring a question) and takes
 * the highest priority; its recorded key is brought up to today's normalization.
 */
function mergeDuplicates(command: Extract<QuestionSetCommand, { type: 'MergeDuplicates' }>, state: QuestionSetState): AeoQuestionEvent[] {
  const groups = new Map<string, QuestionRecord[]>()
  for (const q of liveQuestions(state)) {
    const key = promptKey(q.prompt)
    groups.set(key, [...(groups.get(key) ?? []), q])
  }
  const events: AeoQuestionEvent[] = []
  for (const [key, group] of groups) {
    const [canonical, ...duplicates] = group
    if (!canonical || duplicates.length === 0) continue
    events.push({
      type: 'AeoQuestionsMerged',
      data: { client_id: command.client_id, canonical_id: canonical.id, merged_ids: duplicates.map((q) => q.id) },
    })
    const changes: Extract<AeoQuestionEvent, { type: 'AeoQuestionUpdated' }>['data'] = {
      client_id: command.client_id,
      query_id: canonical.id,
    }
    let changed = false
    const active = group.some((q) => q.active)
    if (active !== canonical.active) {
      changes.active = active
      changed = true
    }
    const priority = Math.max(...group.map((q) => q.priority))
    if (priority !== canonical.priority) {
      changes.priority = priority
      changed = true
    }
    if (canonical.prompt_key !== key) {
      changes.prompt = canonical.prompt
      changes.prompt_key = key
      changed = true
    }
    if (changed) events.push({ type: 'AeoQuestionUpdated', data: changes })
  }
  return events
}

function decide(command: QuestionSetCommand, state: QuestionSetState): AeoQuestionEvent[] {
  switch (command.type) {
    case 'AddQuestions':
      return addQuestions(command, state)
    case 'UpdateQuestion':
      return updateQuestion(command, state)
    case 'DeleteQuestion': {
      const current = findLive(state, command.query_id)
      if (!current) throw notFound(command.query_id)
      if (!command.captured) return [{ type: 'AeoQuestionDeleted', data: { client_id: command.client_id, query_id: command.query_id } }]
      // Its captures (and the reports built on them) keep pointing at it: stop asking it instead.
      if (!current.active) return []
      return [{ type: 'AeoQuestionUpdated', data: { client_id: command.client_id, query_id: command.query_id, active: false } }]
    }
    case 'DeleteQuestions': {
      const keep = new Set(command.keep)
      return liveQuestions(state)
        .filter((q) => !keep.has(q.id))
        .map((q): AeoQuestionEvent => ({ type: 'AeoQuestionDeleted', data: { client_id: command.client_id, query_id: q.id } }))
    }
    case 'MergeDuplicates':
      return mergeDuplicates(command, state)
    default:
      return assertNever(command)
  }
}

export const questionSet: Aggregate<QuestionSetState, QuestionSetCommand, AeoQuestionEvent> = {
  streamOf: questionSetStream,
  initialState,
  evolve,
  decide,
}
