import { sleep } from '../../../commands/sleep.js'
import { MAX_FALLBACK_REASON } from '../../../domain/search/intent/events.js'
import { intentRequest, readIntentAnswer } from '../../../domain/search/intent/model-answer.js'
import { storableText } from '../../../domain/search/intent/page-text.js'
import type { IntentClassification, IntentRuleInput } from '../../../domain/search/intent/rules.js'
import { LanguageModelError, type LanguageModel } from '../../language-model/port.js'

export interface ModelRetryPolicy {
  /** Tries per page while the failure is worth another (1 = no retry). */
  readonly maxAttempts: number
  /** The first retry's wait; each next one doubles it, with jitter. */
  readonly backoffBaseMs: number
  /** [0, 1): the jitter's randomness (tests may fix it). */
  readonly random?: () => number
}

export type ModelOutcome =
  | { readonly ok: true; readonly classification: IntentClassification }
  | { readonly ok: false; readonly reason: string }

/** The wait before try `attempt + 1`: base × 2^(attempt−1), between half and all of it (full jitter would allow none). */
export function retryDelayMs(attempt: number, baseMs: number, random: number): number {
  return Math.round(baseMs * 2 ** (attempt - 1) * (0.5 + random / 2))
}

/**
 * Runs `call` with a signal of its own that aborts with `parent`, and lets go of `parent` afterwards: the
 * provider SDKs add an abort listener per request to the signal they are given and do not all remove it,
 * so handing them the processor's long-lived signal would grow its listeners by one per page.
 */
async function withOwnSignal<T>(parent: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController()
  const abort = () => own.abort(parent.reason)
  parent.addEventListener('abort', abort, { once: true })
  try {
    return await call(own.signal)
  } finally {
    parent.removeEventListener('abort', abort)
  }
}

/** Thrown when the processor is stopping: the page is left for the next start, nothing recorded. */
export class ClassificationAborted extends Error {
  override readonly name = 'ClassificationAborted'
}

/**
 * The model's classification of one page: asked up to maxAttempts times while the failure is retryable (a
 * rate limit, a timeout, a provider outage), never for one that is not (a refused key, a cut-off answer).
 * An answer that names no intent is not asked again: the same prompt would get the same kind of answer.
 * Never throws for a provider failure (the reason comes back, for the record of the fallback); throws
 * ClassificationAborted when `signal` aborts, so a shutdown never records a fallback.
 */
export async function askModel(
  model: LanguageModel,
  input: IntentRuleInput,
  policy: ModelRetryPolicy,
  signal: AbortSignal,
): Promise<ModelOutcome> {
  const random = policy.random ?? Math.random
  const request = intentRequest(input)
  for (let attempt = 1; ; attempt++) {
    let failure: LanguageModelError
    try {
      const text = await withOwnSignal(signal, (own) => model.complete({ ...request, signal: own }))
      const classification = readIntentAnswer(text)
      if (classification) return { ok: true, classification }
      return { ok: false, reason: storableText(`${model.name}: the answer names none of the five intents`, MAX_FALLBACK_REASON) }
    } catch (error) {
      if (signal.aborted) throw new ClassificationAborted('stopped while asking the model', { cause: error })
      failure = error instanceof LanguageModelError ? error : new LanguageModelError(String(error), false, { cause: error })
    }
    if (!failure.retryable || attempt >= policy.maxAttempts) {
      const tries = attempt > 1 ? ` (after ${attempt} tries)` : ''
      return { ok: false, reason: storableText(`${failure.message}${tries}`, MAX_FALLBACK_REASON) }
    }
    await sleep(retryDelayMs(attempt, policy.backoffBaseMs, random()), signal)
    if (signal.aborted) throw new ClassificationAborted('stopped while waiting to ask the model again')
  }
}
