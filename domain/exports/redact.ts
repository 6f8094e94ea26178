import { isSecretField } from './secret-columns.js'

export interface Redacted<T> {
  /** The value without its secret fields. */
  readonly value: T
  /** The paths of the fields left out (`settings.client_secret_sealed`, `codes.0.recovery_code_hash`), so a reader sees the gap. */
  readonly redacted: readonly string[]
}

/**
 * An event's data as an auditor may carry it away (`ops replay`): every field the export's rule keeps out
 * (isSecretField, scoped by the event type) is removed at any depth and named. The log itself holds only
 * digests and sealed secrets, but a digest of a live key is what authentication looks up, and a replay
 * travels like an export does. Pure; never throws; the input is not changed.
 */
export function redactSecretFields<T>(scope: string, value: T): Redacted<T> {
  const redacted: string[] = []
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${path}${index}.`))
    if (node === null || typeof node !== 'object') return node
    const kept: [string, unknown][] = []
    for (const [name, inner] of Object.entries(node)) {
      if (isSecretField(scope, name)) redacted.push(`${path}${name}`)
      else kept.push([name, walk(inner, `${path}${name}.`)])
    }
    // fromEntries defines own properties, so a key named __proto__ stays data instead of setting a prototype.
    return Object.fromEntries(kept)
  }
  return { value: walk(value, '') as T, redacted }
}
