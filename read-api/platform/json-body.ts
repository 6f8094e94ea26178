import { findJsonProblem, type JsonPath, type JsonProblem } from '../../domain/shared/json-limits.js'
import { ApiError } from '../errors.js'

/** A path segment as the detail shows it: refused characters escaped (the detail must itself be text), long keys cut. */
function segment(part: string | number): string {
  if (typeof part === 'number') return String(part)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are escaped so a field name prints safely.
  const escaped = part.replace(/[\u0000-\u001f\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return escaped.length > 100 ? `${escaped.slice(0, 100)}…` : escaped
}

/** The field as validation_failed details name fields elsewhere ("client.name"; "(body)" for the body itself). */
const fieldOf = (path: JsonPath) => (path.length === 0 ? '(body)' : path.map(segment).join('.'))

/** A problem as validation_failed's detail says it: the field, then what is wrong (also for form fields, platform/form-input.ts). */
export function describeJsonProblem(problem: JsonProblem): string {
  if (problem.kind === 'too_deep') {
    // The parameter the nesting is in, not the 64-segment path to where it crossed the limit.
    return `${fieldOf(problem.path.slice(0, 1))}: nested deeper than ${problem.maxDepth} levels of arrays and objects (the limit; the request body is level 1)`
  }
  if (problem.inKey)
    return `${fieldOf(problem.path.slice(0, -1))}: the key ${JSON.stringify(segment(problem.path.at(-1)!))} ${problem.reason}`
  return `${fieldOf(problem.path)}: ${problem.reason}`
}

/**
 * Parses a JSON request body (every route's, through the app's one JSON content-type parser), so that no
 * handler, hook or log line ever sees a body nested beyond MAX_JSON_DEPTH or holding text the service refuses
 * (domain/shared/json-limits.ts): the idempotency hash, zod and the event store all come after this. An empty
 * body is no parameters (undefined). Throws invalid_json for malformed JSON and validation_failed naming the
 * field for the rest.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ApiError('invalid_json', (error as Error).message)
  }
  const problem = findJsonProblem(value)
  if (problem !== null) throw new ApiError('validation_failed', describeJsonProblem(problem))
  return value
}
