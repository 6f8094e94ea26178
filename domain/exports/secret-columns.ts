/**
 * THE deny-list of the organization export: read-model columns that never leave the service in an export
 * zip (spec "Export workflow": secrets excluded). Secrets proper are never in the read models at all
 * (DESIGN: API keys and tokens are stored as sha256, signing secrets encrypted in the log), so what is left
 * to exclude is what derives from them:
 *
 * - api_keys.key_hash: the sha256 of a live API key. Not the key, but it is what authentication looks up
 *   and it identifies the key across leaks; an export travels (mail, shared drives), so it stays home.
 * - api_keys.key_hint, webhooks.secret_hint: the first characters of the key / signing secret. Harmless in
 *   the UI of the owner, but a fragment of a credential has no business in a portable copy of the data.
 * - member_invites.token_hash, password_resets.token_hash, user_sessions.session_hash: the sha256 of an
 *   invite link, a reset link and a sign-in session cookie, each a live credential until it expires. The
 *   rows stay (who was invited, when sessions and resets happened); the digests do not. Password hashes,
 *   TOTP secrets and recovery codes are never projected (the user's stream holds them), so there is no
 *   column of theirs to list.
 *
 * Fail closed for columns nobody has thought about yet: any column whose name says it holds a secret,
 * a token, a password, a hash of one, a hint of one, or ciphertext is excluded as well (SECRET_NAME), in
 * every table, today's and future ones. The manifest lists what was excluded per table, so a consumer sees
 * the gap instead of guessing. A column that matches the pattern but is plain data must be allowed here,
 * by name, with the reason.
 */
export const SECRET_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_keys: ['key_hash', 'key_hint'],
  webhooks: ['secret_hint'],
  member_invites: ['token_hash'],
  password_resets: ['token_hash'],
  user_sessions: ['session_hash'],
}

/** Column names that look like a credential or something derived from one. */
export const SECRET_NAME = /secret|passw|token|hash|hint|cipher|encrypt|nonce|salt|credential|signature|private|otp/i

/** Columns that match SECRET_NAME but are plain data, with the reason. None so far. */
export const NOT_SECRET: Readonly<Record<string, readonly string[]>> = {}

/** Whether `table.column` is kept out of exports. */
export function isSecretColumn(table: string, column: string): boolean {
  if (SECRET_COLUMNS[table]?.includes(column)) return true
  if (NOT_SECRET[table]?.includes(column)) return false
  return SECRET_NAME.test(column)
}
