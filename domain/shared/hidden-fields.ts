/**
 * Event data fields that stay in the log but never leave through the API: digests of keys, tokens, codes and
 * passwords, and secrets sealed with the service key. One rule for every reader that shows event data as
 * recorded (get_entity_history, get_entity_changes), so a new secret field named like the others is hidden
 * everywhere at once.
 */
const HIDDEN_FIELDS: ReadonlySet<string> = new Set(['key_hash', 'password_hash', 'sealed_credentials', 'secret_hint'])

/** Whether an event data field is hidden (by name or by the naming of digests and sealed secrets). */
export function isHiddenField(key: string): boolean {
  return HIDDEN_FIELDS.has(key) || /(_hash|_hashes|_sealed)$/.test(key) || /^(sealed_|secret)/.test(key)
}
