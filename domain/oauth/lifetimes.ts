/** Lifetimes fixed by the spec (behaviour.md, Authentication 6; limits.ts publishes the same numbers). */
export const AUTHORIZATION_CODE_TTL_MS = 10 * 60_000
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000
/** Sliding: every rotation gives the new refresh token a fresh 30 days. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000

export const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString()
