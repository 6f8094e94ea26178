/**
 * How a read-model value is written into an export: JSON keeps types (numbers, booleans, arrays, objects,
 * null); timestamps become ISO 8601 strings and binary data base64 in both formats. CSV is RFC 4180: fields
 * separated by commas, records ended by CRLF, a field quoted when it holds a quote, comma, CR or LF, and a
 * quote inside doubled. In CSV, null is the empty field and arrays and objects are their JSON text; the
 * JSON file is the exact one (it tells null from '').
 */
export function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (Buffer.isBuffer(value)) return value.toString('base64')
  if (typeof value === 'bigint') return value.toString()
  return value
}

/** One row as a JSON object of the exported columns, in column order. */
export function jsonRow(row: Record<string, unknown>, columns: readonly string[]): string {
  const out: Record<string, unknown> = {}
  for (const column of columns) out[column] = jsonValue(row[column] ?? null)
  return JSON.stringify(out)
}

const NEEDS_QUOTES = /[",\r\n]/

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text: string
  if (value instanceof Date) text = value.toISOString()
  else if (Buffer.isBuffer(value)) text = value.toString('base64')
  else if (typeof value === 'object') text = JSON.stringify(value)
  else text = String(value)
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
