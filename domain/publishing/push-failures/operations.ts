import { z } from 'zod'

/**
 * What a push was doing when the site did not take it. The publisher, the blog pipeline and the connection
 * check name their operation; resolution is per client and operation (the next success of `apply_site_edit`
 * clears the client's `apply_site_edit` failures, not its `media` ones). The list is what the service pushes
 * today; any other lower-case name is accepted, so a new pusher needs no change here.
 */
export const KNOWN_PUSH_OPERATIONS = [
  'apply_site_edit',
  'rollback_site_edit',
  'redirect',
  'content_page',
  'blog_post',
  'media',
  'check_connection',
] as const
export type KnownPushOperation = (typeof KNOWN_PUSH_OPERATIONS)[number]

export const PUSH_OPERATION_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

export const PushOperation = z
  .string()
  .regex(PUSH_OPERATION_PATTERN, 'expected a lower-case operation name (a-z, 0-9, _; at most 64 characters)')

/** The longest error text a failure keeps: longer ones are cut (the start says what went wrong). */
export const PUSH_ERROR_MAX_LENGTH = 2000
/** The longest resolution note. */
export const PUSH_NOTE_MAX_LENGTH = 1000
/** The longest target (a URL, or `wp:<type>/<id>`). */
export const PUSH_TARGET_MAX_LENGTH = 2000
/** The note an automatic resolution carries when the caller gives none (the spec's default). */
export const AUTO_RESOLVE_NOTE = 'auto: next attempt succeeded'
