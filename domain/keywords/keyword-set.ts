import type { z } from 'zod'
import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import { KEYWORD_MAX_LENGTH, type KeywordEvent, type KeywordSource } from './events.js'
import { cleanKeyword, keywordKey } from './text.js'

/**
 * A client's tracked search keywords: one stream, `keywords-<client_id>`, so "one keyword per normalized
 * text" is decided against the whole set. Deleted keywords stay, marked (a soft delete), so ids are never
 * reused and adding the same text again brings the same keyword back.
 */
export const keywordSetStream = (clientId: number) => `keywords-${clientId}`

/**
 * The most keywords (active and deleted) one client may have. It bounds this stream's state and the work a
 * rank check creates; a manual add beyond it is refused with keyword_limit, generation stops short of it.
 */
export const MAX_KEYWORDS_PER_CLIENT = 5000

export type Source = z.infer<typeof KeywordSource>

export interface KeywordRecord {
  readonly id: number
  readonly keyword: string
  readonly key: string
  readonly source: Source
  readonly service: string
  readonly location: string
  readonly deleted: boolean
}

export interface KeywordSetState {
  readonly clientId: number
  /** Oldest first. */
  readonly keywords: readonly KeywordRecord[]
}

export interface NewKeyword {
  readonly keyword_id: number
  readonly keyword: string
  readonly source: Source
  readonly service: string
  readonly location: string
}

export type KeywordSetCommand =
  /**
   * Get-or-create each keyword by normalized text (against the set and earlier ones in the same command).
   * `deleted`: what an add of a deleted keyword's text does: bring it back (a person asked for it), or
   * leave it deleted (generation must not undo a person's delete). `overflow`: past the cap, refuse the
   * command or add only what fits.
   */
  | {
      type: 'AddKeywords'
      client_id: number
      keywords: readonly NewKeyword[]
      deleted: 'restore' | 'keep'
      overflow: 'refuse' | 'truncate'
    }
  | { type: 'DeleteKeyword'; client_id: number; keyword_id: number }

const initialState = (): KeywordSetState => ({ clientId: 0, keywords: [] })

/** The keyword (active or deleted) whose text normalizes to `key`. */
export function findByKey(state: KeywordSetState, key: string): KeywordRecord | undefined {
  return state.keywords.find((k) => k.key === key)
}

export function findById(state: KeywordSetState, keywordId: number): KeywordRecord | undefined {
  return state.keywords.find((k) => k.id === keywordId)
}

/** The stored form and identity of a keyword, or validation_failed when it has no words or is too long. */
export function keywordText(text: string): { keyword: string; key: string } {
  const keyword = cleanKeyword(text)
  const key = keywordKey(keyword)
  if (key === '') throw new DomainError('validation_failed', 'A keyword needs letters or digits', `keyword "${text}"`)
  if (keyword.length > KEYWORD_MAX_LENGTH) {
    throw new DomainError(
      'validation_failed',
      `A keyword is at most ${KEYWORD_MAX_LENGTH} characters`,
      `keyword "${keyword.slice(0, 40)}…"`,
    )
  }
  return { keyword, key }
}

function patch(state: KeywordSetState, id: number, change: (k: KeywordRecord) => KeywordRecord): KeywordSetState {
  return { ...state, keywords: state.keywords.map((k) => (k.id === id ? change(k) : k)) }
}

function evolve(state: KeywordSetState, event: KeywordEvent): KeywordSetState {
  switch (event.type) {
    case 'KeywordAdded': {
      const d = event.data
      const record: KeywordRecord = {
        id: d.keyword_id,
        keyword: d.keyword,
        key: d.keyword_key,
        source: d.source,
        service: d.service,
        location: d.location,
        deleted: false,
      }
      return { clientId: d.client_id, keywords: [...state.keywords, record] }
    }
    case 'KeywordDeleted':
      return patch(state, event.data.keyword_id, (k) => ({ ...k, deleted: true }))
    case 'KeywordRestored':
      return patch(state, event.data.keyword_id, (k) => ({ ...k, deleted: false, source: event.data.source }))
    default:
      return assertNever(event)
  }
}

function addKeywords(command: Extract<KeywordSetCommand, { type: 'AddKeywords' }>, state: KeywordSetState): KeywordEvent[] {
  const events: KeywordEvent[] = []
  const seen = new Set<string>()
  let total = state.keywords.length
  for (const k of command.keywords) {
    const { keyword, key } = keywordText(k.keyword)
    if (seen.has(key)) continue
    seen.add(key)
    const existing = findByKey(state, key)
    if (existing) {
      if (existing.deleted && command.deleted === 'restore') {
        events.push({ type: 'KeywordRestored', data: { client_id: command.client_id, keyword_id: existing.id, source: k.source } })
      }
      continue
    }
    if (total >= MAX_KEYWORDS_PER_CLIENT) {
      if (command.overflow === 'truncate') break
      throw new DomainError(
        'keyword_limit',
        'The client has the most keywords allowed',
        `${total} keywords; the cap is ${MAX_KEYWORDS_PER_CLIENT}`,
      )
    }
    total++
    events.push({
      type: 'KeywordAdded',
      data: {
        client_id: command.client_id,
        keyword_id: k.keyword_id,
        keyword,
        keyword_key: key,
        source: k.source,
        service: k.service,
        location: k.location,
        intent: null,
      },
    })
  }
  return events
}

function decide(command: KeywordSetCommand, state: KeywordSetState): KeywordEvent[] {
  switch (command.type) {
    case 'AddKeywords':
      return addKeywords(command, state)
    case 'DeleteKeyword': {
      const current = findById(state, command.keyword_id)
      if (!current) throw new NotFoundError('keyword', command.keyword_id)
      // Deleting a deleted keyword changes nothing (a retried request).
      if (current.deleted) return []
      return [{ type: 'KeywordDeleted', data: { client_id: command.client_id, keyword_id: command.keyword_id } }]
    }
    default:
      return assertNever(command)
  }
}

export const keywordSet: Aggregate<KeywordSetState, KeywordSetCommand, KeywordEvent> = {
  streamOf: keywordSetStream,
  initialState,
  evolve,
  decide,
}
