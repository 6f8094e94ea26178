import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { PUSH_FAILURE_CATEGORIES } from './categories.js'
import { PUSH_ERROR_MAX_LENGTH, PUSH_NOTE_MAX_LENGTH, PUSH_TARGET_MAX_LENGTH, PushOperation } from './operations.js'

/**
 * Push failures (issue 27): every failure of a client in one stream, `push_failures-<client_id>`, so that
 * "resolve every unresolved failure of this client and operation" is one decision against one state.
 */

export const PushFailureCategory = z.enum(PUSH_FAILURE_CATEGORIES)

/**
 * A push the client's site did not take. `edit_id`: the site edit pushed, when it was one; `target`: what
 * was pushed to (the URL, or `wp:<type>/<id>`); `http_status`: the site's answer, when it answered;
 * `attempts`: how many tries the pusher made before it recorded the failure.
 */
export const PushFailureRecorded = z.object({
  failure_id: Id,
  client_id: Id,
  operation: PushOperation,
  category: PushFailureCategory,
  error: z.string().max(PUSH_ERROR_MAX_LENGTH),
  edit_id: Id.nullable(),
  target: z.string().max(PUSH_TARGET_MAX_LENGTH).nullable(),
  http_status: z.number().int().min(100).max(599).nullable(),
  attempts: z.number().int().min(1).max(1000).nullable(),
})

/**
 * Failures of one client and operation resolved together: `auto` when the next attempt succeeded (the
 * pusher said so), false when a person resolved them. `failure_ids` lists exactly those resolved.
 */
export const PushFailuresResolved = z.object({
  client_id: Id,
  operation: PushOperation,
  failure_ids: z.array(Id).min(1),
  note: z.string().max(PUSH_NOTE_MAX_LENGTH),
  auto: z.boolean(),
})

export const pushFailuresEventSchemas = { PushFailureRecorded, PushFailuresResolved } as const

type Schemas = typeof pushFailuresEventSchemas
export type PushFailureEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
