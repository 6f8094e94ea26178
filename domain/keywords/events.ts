import { z } from 'zod'
import { Id } from '../shared/values.js'

/**
 * A client's keywords are one stream, `keywords-<client_id>`, because "one keyword per normalized text per
 * client" is decided against the whole set (get-or-create, generation adding hundreds at once).
 */
export const KeywordSource = z.enum(['manual', 'generated', 'aeo'])
export const KEYWORD_MAX_LENGTH = 100

/** KeywordAdded as schema_version 1 recorded it; read through the upcaster in upcasters.ts. */
export const KeywordAddedV1 = z.object({
  client_id: Id,
  keyword_id: Id,
  /** As given, with spacing collapsed. */
  keyword: z.string().min(1).max(KEYWORD_MAX_LENGTH),
  /** keywordKey(keyword): the de-duplication identity within the client. */
  keyword_key: z.string().min(1),
  source: KeywordSource,
  /** The client's service it is about ('' when none). */
  service: z.string().max(200),
  /** The location it is about ('' when none). */
  location: z.string().max(200),
})

/** What a searcher wants from a keyword's results: the classes search tracking reports and filters by. */
export const KeywordIntent = z.enum(['informational', 'commercial', 'transactional', 'navigational', 'local'])

/**
 * KeywordAdded, schema_version 2: the keyword's search intent, null until something classifies it (a
 * person, or the intent classifier of search tracking). Version 1 events read as intent null.
 */
export const KeywordAdded = KeywordAddedV1.extend({ intent: KeywordIntent.nullable() })

/** delete_keyword: a soft delete; the row stays, marked, and the id is never reused. */
export const KeywordDeleted = z.object({ client_id: Id, keyword_id: Id })

/** add_keyword of a deleted keyword's text brings the same keyword (same id) back. */
export const KeywordRestored = z.object({ client_id: Id, keyword_id: Id, source: KeywordSource })

export const keywordEventSchemas = { KeywordAdded, KeywordDeleted, KeywordRestored } as const

type Schemas = typeof keywordEventSchemas
export type KeywordEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
