/** Characters that must be backslash-escaped inside a double-quoted array element. */
const SPECIAL = /["\\]/
const SPECIALS = /["\\]/g

/**
 * A one-dimensional PostgreSQL array literal (`{1,NULL,"a \"b\""}`), the text pg would send for the same
 * JavaScript array, in one pass: numbers bare, null and undefined as NULL, everything else double-quoted
 * (so a string "NULL" stays a string), escaped only when it holds a quote or a backslash. Dates go as
 * ISO-8601 (an instant, like pg's local-time form); other objects as JSON, as pg does.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length)
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (value === null || value === undefined) parts[i] = 'NULL'
    else if (typeof value === 'number' || typeof value === 'bigint') parts[i] = String(value)
    else {
      const text =
        typeof value === 'string'
          ? value
          : value instanceof Date
            ? value.toISOString()
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value)
      parts[i] = SPECIAL.test(text) ? `"${text.replace(SPECIALS, '\\$&')}"` : `"${text}"`
    }
  }
  return `{${parts.join(',')}}`
}
