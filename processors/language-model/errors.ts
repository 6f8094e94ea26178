import { LanguageModelError } from './port.js'

/** Statuses worth asking again later: timeouts, conflicts, rate limits and provider-side failures (529 overloaded included). */
export function retryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * Any failure of a provider SDK call as a LanguageModelError (the port's only error): the provider's own
 * reason from an API error body, an abort as retryable, anything else as a malformed answer.
 */
export function toLanguageModelError(provider: string, error: unknown, signal: AbortSignal | undefined): LanguageModelError {
  if (error instanceof LanguageModelError) return error
  if (signal?.aborted || (error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError'))) {
    return new LanguageModelError(`${provider}: request aborted`, true, { cause: error })
  }
  const e = error as { status?: unknown; error?: { message?: unknown; error?: { message?: unknown } }; message?: unknown }
  const status = typeof e?.status === 'number' ? e.status : undefined
  // The body's `error` object (OpenAI) or `error.error` (Anthropic) carries the provider's reason.
  const reason = [e?.error?.error?.message, e?.error?.message, e?.message].find((m): m is string => typeof m === 'string') ?? String(error)
  return new LanguageModelError(status ? `${provider} ${status}: ${reason}` : `${provider}: ${reason}`, retryableStatus(status), {
    cause: error,
  })
}
