import { unacceptableTextReason } from './values.js'

/**
 * How deep a JSON request body may nest arrays and objects; the body itself is level 1, so a parameter's
 * value (record_json, a job's payload) may nest one level less. Published in the limits document. Real
 * payloads nest a handful of levels; without a bound, a body of a few kilobytes nested thousands deep
 * overflows the stack of every recursive step after parsing (JSON.stringify, zod, jsonb).
 */
export const MAX_JSON_DEPTH = 64

export type JsonPath = readonly (string | number)[]

/** What is wrong with a parsed JSON value, and where: the path from the top (empty: the value itself). */
export type JsonProblem =
  | { readonly kind: 'too_deep'; readonly path: JsonPath; readonly maxDepth: number }
  | { readonly kind: 'text'; readonly path: JsonPath; readonly reason: string; readonly inKey: boolean }

/**
 * The first problem of a parsed JSON value in document order: nesting beyond `maxDepth`, or a string or key
 * that unacceptableTextReason refuses; null when there is none. The walk is iterative (an explicit stack), so
 * the check meant to refuse a hostile nesting cannot itself exhaust the call stack; it never descends below
 * `maxDepth`, so its work is bounded by the value's size. Never throws.
 */
export function findJsonProblem(value: unknown, maxDepth: number = MAX_JSON_DEPTH): JsonProblem | null {
  const stack: { readonly value: unknown; readonly path: JsonPath }[] = [{ value, path: [] }]
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!
    if (typeof current === 'string') {
      const reason = unacceptableTextReason(current)
      if (reason !== null) return { kind: 'text', path, reason, inKey: false }
      continue
    }
    if (typeof current !== 'object' || current === null) continue
    // A container at path length n is at level n + 1.
    if (path.length >= maxDepth) return { kind: 'too_deep', path, maxDepth }
    const children: { value: unknown; path: JsonPath }[] = []
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        children.push({ value: item, path: [...path, index] })
      })
    } else {
      for (const [key, item] of Object.entries(current)) {
        const reason = unacceptableTextReason(key)
        if (reason !== null) return { kind: 'text', path: [...path, key], reason, inKey: true }
        children.push({ value: item, path: [...path, key] })
      }
    }
    // Reversed onto the stack, so the first child is looked at first (the problem reported is the first one).
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!)
  }
  return null
}
