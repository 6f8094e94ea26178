/**
 * THE deny-list of what leaves the service for an auditor or an export: read-model columns in an export zip
 * (spec "Export workflow": secrets excluded) and event fields in `ops replay` (domain/exports/redact.ts), one
 * rule for both, so a copy of the log carries no more than a copy of the read models. Secrets proper are never in the read models at all
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

/**
 * Fields that match SECRET_NAME but are plain data, by table or event type, with the reason:
 * - OAuthClientRegistered.token_endpoint_auth_method: always the literal `none` (public clients); it names
 *   how a client authenticates, not a token.
 * - UserTotpEnrolled / UserSignedIn .totp_step: the TOTP time step a code was accepted at (a clock reading
 *   kept so no code is accepted twice), not the secret nor a code.
 */
export const NOT_SECRET: Readonly<Record<string, readonly string[]>> = {
  OAuthClientRegistered: ['token_endpoint_auth_method'],
  UserTotpEnrolled: ['totp_step'],
  UserSignedIn: ['totp_step'],
}

/**
 * Whether field `name` of `scope` (a read-model table in an export, an event type in a replay) is kept out.
 * Nested event fields are judged by their own name in the event's scope.
 */
export function isSecretField(scope: string, name: string): boolean {
  if (SECRET_COLUMNS[scope]?.includes(name)) return true
  if (NOT_SECRET[scope]?.includes(name)) return false
  return SECRET_NAME.test(name)
}
