/** One provider's settings (ops/config.ts: ANTHROPIC_* or OPENAI_*); the base URL points tests at a local server. */
export interface LanguageModelProviderSettings {
  readonly apiKey: string
  readonly baseUrl: string | undefined
  readonly model: string
}

export type LanguageModelProvider = 'anthropic' | 'openai' | 'builtin'

/** Which provider writes text for jobs (LANGUAGE_MODEL_PROVIDER), with its settings; builtin: none (null port). */
export type LanguageModelSettings =
  | { readonly provider: 'anthropic' | 'openai'; readonly settings: LanguageModelProviderSettings }
  | { readonly provider: 'builtin' }

/** Output bound for one completion when the caller gives none: a rewritten page fits well within it. */
export const DEFAULT_MAX_TOKENS = 8192
/** A completion that takes longer than this fails (retryable). */
export const DEFAULT_TIMEOUT_MS = 180_000
