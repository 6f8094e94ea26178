import { isHiddenField } from '../../shared/hidden-fields.js'

/**
 * Before and after of the fields an event carries (get_entity_changes). `after` is the event's own value;
 * `before` the last value the same field had for the same record in the earlier events of the same stream
 * that the caller read (a bounded window: see LOOKBACK_EVENTS), `null` when none of them carried it. Fields
 * that name records (`…_id`, `…_ids`), hidden fields (digests, sealed secrets) and fields whose value did
 * not change are left out; large values are cut to a preview.
 */

/** Earlier events of the stream read to find a field's previous value. */
export const LOOKBACK_EVENTS = 100
/** A string longer than this is cut, and a list or object whose JSON is, replaced by a preview (the length said). */
export const MAX_VALUE_CHARS = 300

export interface FieldChange {
  field: string
  /** null: no earlier event in the window carried the field (a created record, or an older value beyond it). */
  before: unknown
  after: unknown
}

/** An earlier event of the stream, as recorded. */
export interface EarlierEvent {
  readonly data: Record<string, unknown>
}

const isIdField = (key: string) => /(^id$|_id$|_ids$)/.test(key)

/** A value as the view shows it: small ones as they are, large ones as a preview saying how large. */
export function boundedValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}… (${value.length} characters)` : value
  }
  if (value !== null && typeof value === 'object') {
    const json = JSON.stringify(value)
    return json.length > MAX_VALUE_CHARS ? { preview: `${json.slice(0, MAX_VALUE_CHARS)}…`, json_chars: json.length } : value
  }
  return value
}

/**
 * The changed fields of `data`, with their previous values from `earlier` (oldest first) events of the same
 * record: those whose `idField` value equals this event's (or every earlier event, when the stream is the
 * record's own: idField null).
 */
export function fieldChanges(data: Record<string, unknown>, earlier: readonly EarlierEvent[], idField: string | null): FieldChange[] {
  const sameRecord = idField === null ? earlier : earlier.filter((e) => JSON.stringify(e.data[idField]) === JSON.stringify(data[idField]))
  const changes: FieldChange[] = []
  for (const [field, after] of Object.entries(data)) {
    if (isIdField(field) || isHiddenField(field) || after === undefined) continue
    let before: unknown = null
    for (let i = sameRecord.length - 1; i >= 0; i--) {
      const value = sameRecord[i]!.data[field]
      if (value !== undefined) {
        before = value
        break
      }
    }
    if (JSON.stringify(before) === JSON.stringify(after)) continue
    changes.push({ field, before: boundedValue(before), after: boundedValue(after) })
  }
  return changes
}
