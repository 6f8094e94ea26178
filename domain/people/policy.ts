/**
 * The sign-in rules in numbers (times in milliseconds). Kept in the domain so `decide` and the pages that
 * explain them agree.
 */
export const LOCKOUT_FAILURES = 5
export const LOCKOUT_WINDOW_MS = 15 * 60_000
export const LOCKOUT_DURATION_MS = 15 * 60_000
/** An invite link works this long. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000
/** A password-reset link works this long, once. */
export const PASSWORD_RESET_TTL_MS = 30 * 60_000
/** A second reset is not issued while one was requested this recently (has_recent_password_reset). */
export const PASSWORD_RESET_THROTTLE_MS = 5 * 60_000
/** A session cookie is valid this long after sign-in (fixed, not sliding: no write per request). */
export const SESSION_TTL_MS = 12 * 60 * 60_000
export const MIN_PASSWORD_LENGTH = 12
export const MAX_PASSWORD_LENGTH = 200
export const RECOVERY_CODE_COUNT = 10
