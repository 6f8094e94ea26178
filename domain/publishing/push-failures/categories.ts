/**
 * Why a push to a client's site failed, in the words an operator acts on. The WordPress client
 * (commands/publishing/wordpress/) classifies every failure into one of these; a push failure records it.
 *
 * - `auth`: the site refused the credentials (401/403) — fix the application password.
 * - `conflict`: the page changed on the site since the snapshot the edit was written from — re-stage.
 * - `not_found`: the post, page or endpoint is not there (404; a plugin the push needs is missing).
 * - `rejected`: the site answered 4xx to the request itself (validation, a plugin refusing it).
 * - `server_error`: the site answered 5xx; retried with backoff before it is recorded.
 * - `timeout`: no answer within the time limit; retried before it is recorded.
 * - `network`: the connection failed (refused, reset, DNS).
 * - `blocked`: the address policy refused the site's address or a redirect's (SITE_ALLOWED_HOSTS); not retried.
 * - `invalid_response`: the answer was not what the REST API sends (HTML instead of JSON, too large, wrong shape).
 */
export const PUSH_FAILURE_CATEGORIES = [
  'auth',
  'conflict',
  'not_found',
  'rejected',
  'server_error',
  'timeout',
  'network',
  'blocked',
  'invalid_response',
] as const
export type PushFailureCategory = (typeof PUSH_FAILURE_CATEGORIES)[number]

/** A category worth trying again without a person's help: the site may answer next time. */
export const isTransientPushFailure = (category: PushFailureCategory): boolean =>
  category === 'server_error' || category === 'timeout' || category === 'network'
