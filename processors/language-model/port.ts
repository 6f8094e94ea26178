/**
 * The one language-model port every text-generating job uses (prompted_edit, ad_copy, keyword_generation).
 * Adapters: Anthropic or OpenAI when a key is configured (processors/language-model/). When none is, the
 * port is absent (null) and each kind falls back to its deterministic built-in writer in domain/, so every
 * kind works offline and in tests.
 */
export interface LanguageModelRequest {
  /** Who the model is and the rules of the output (e.g. "answer with JSON of this shape"). */
  readonly system: string
  readonly prompt: string
  readonly maxTokens?: number
  readonly signal?: AbortSignal
}

export interface LanguageModel {
  /** Provider and model, recorded with what it wrote (e.g. "anthropic:claude-…"). */
  readonly name: string
  /** The model's text answer. Throws LanguageModelError on any provider failure, never anything else. */
  complete(request: LanguageModelRequest): Promise<string>
}

export class LanguageModelError extends Error {
  override readonly name = 'LanguageModelError'
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
