/**
 * Answers that one read hands to several requests at once (a gathered read, read-api/platform/coalesce.ts,
 * gives every request that asked the same thing the same object). The RPC route serialises such an answer
 * once and sends the same JSON text to each of them: for get_aeo_summary's few-KB answers, serialising was
 * about a tenth of the service's CPU per request in a profile of the 64-connection bench.
 *
 * Only answers marked here are remembered, and a marked answer must not be changed after it is handed out
 * (nobody does: a carrier only serialises it). Anything else is serialised per request as before.
 */
const texts = new WeakMap<object, string | null>()

/** Marks an answer as shared; returns it. */
export function shareAnswer<T extends object>(answer: T): T {
  if (!texts.has(answer)) texts.set(answer, null)
  return answer
}

/** The JSON text of a shared answer (serialised on first use), or undefined for any other value. */
export function sharedAnswerJson(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const text = texts.get(answer)
  if (text !== null) return text
  const json = JSON.stringify(answer)
  texts.set(answer, json)
  return json
}
