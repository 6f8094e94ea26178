import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MAX_PAGE_OFFSET } from '../registry.js'
import { MAX_JSON_DEPTH } from '../../domain/shared/json-limits.js'
import { DEPRECATION_NOTICE_DAYS } from '../../domain/api-platform/deprecation.js'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../platform/idempotency.js'
import type { DocsContext } from './context.js'

/** Spec "Limits" and "Common rules": the published numbers, from the code that enforces them where it exists. */
export function publishedLimits(ctx: DocsContext) {
  return {
    body_limit_bytes: ctx.bodyLimit,
    json: {
      max_depth: MAX_JSON_DEPTH,
      depth_note: `A JSON body nests arrays and objects at most ${MAX_JSON_DEPTH} levels, the body itself being level 1, so a JSON-valued parameter (record_json, a job payload) nests at most ${MAX_JSON_DEPTH - 1}; deeper is 400 validation_failed naming the parameter.`,
      text: 'Every string and object key, at any depth, and every /api/v1/db text filter: U+0000 and unpaired UTF-16 surrogates are refused with 400 validation_failed naming the field.',
    },
    pagination: {
      default_limit: DEFAULT_PAGE_LIMIT,
      max_limit: MAX_PAGE_LIMIT,
      max_offset: MAX_PAGE_OFFSET,
      over_max: '400 validation_failed naming the maximum (never silently clamped)',
      note: 'Each paginated method declares its own maximum (methods[].pagination); methods that are not paginated return the full set.',
    },
    idempotency_key_max_length: MAX_IDEMPOTENCY_KEY_LENGTH,
    rate_limit: {
      window: 'minute',
      default_per_minute: ctx.rateLimitPerMinute,
      scope: 'per key (a key may have its own limit); per client address without a key',
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset (seconds until the window resets)'],
      over_limit: '429 rate_limited with Retry-After (seconds)',
    },
    idempotent_replay_hours: 24,
    deprecation_notice_days: DEPRECATION_NOTICE_DAYS,
    webhooks: {
      response_timeout_seconds: 10,
      timestamp_tolerance_seconds: 300,
      attempts: 8,
      backoff_minutes: [1, 2, 4, 8, 16, 32, 64],
      disabled_after_consecutive_failures: 100,
    },
    export_retention_days: 7,
    oauth: { access_token_minutes: 60, refresh_token_days: 30, authorization_code_minutes: 10 },
  }
}
