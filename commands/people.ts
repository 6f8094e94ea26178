import { createHash, randomBytes } from 'node:crypto'
import { normalizeEmail } from '../domain/people/email.js'
import { INVITE_TTL_MS, PASSWORD_RESET_TTL_MS, RECOVERY_CODE_COUNT, SESSION_TTL_MS } from '../domain/people/policy.js'
import { canManageMembers, type MemberManager, type Role } from '../domain/people/roles.js'
import { orgMemberEmail, userEmail } from '../domain/people/user-email.js'
import { isActive, user, type SecondFactor, type UserCommand, type UserState } from '../domain/people/user.js'
import { DomainError, NotFoundError } from '../domain/shared/errors.js'
import { loadState, handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'
import { assertOrganizationExists } from './organizations.js'
import { DUMMY_PASSWORD_HASH, generatePassword, hashPassword, verifyPassword } from './secrets/passwords.js'
import { seal, unseal, type ServiceKey } from './secrets/service-key.js'
import { generateTotpSecret, matchTotp, otpauthUri, base32Decode, base32Encode } from './secrets/totp.js'

/**
 * The write side of people and sign-in. Secrets are made and checked here (scrypt, TOTP, sealing, token
 * hashing); `decide` in domain/people/user.ts gets only digests and verdicts, and the log only ever sees
 * hashes and ciphertext.
 */
export type PeopleDeps = WriteDeps & { readonly serviceKey: ServiceKey }

/** The issuer authenticator apps show next to the account. */
export const TOTP_ISSUER = 'RankRelay'

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
export const emailDigest = (email: string) => sha256(normalizeEmail(email))
const mintToken = () => randomBytes(32).toString('base64url')

/** Recovery codes look like `k7m2q-x9d4a`; compared without case, spaces or dashes. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '')
export const hashRecoveryCode = (code: string) => sha256(`recovery:${normalizeRecoveryCode(code)}`)
function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(randomBytes(7)).toLowerCase().slice(0, 10)
    return `${text.slice(0, 5)}-${text.slice(5)}`
  })
}

const PASSWORD_RULE = 'at least 12 and at most 200 characters'
export function checkPasswordRule(password: string): void {
  if (password.length < 12 || password.length > 200)
    throw new DomainError('password_too_weak', 'The password does not meet the rule', PASSWORD_RULE)
}

/** The user's state folded from their stream (initial state when there is none). */
export async function loadUser(deps: WriteDeps, userId: number): Promise<UserState> {
  return loadState(deps.store, user, userId)
}

/** The account an email signs in as, from its reservation stream (the authority, not a read model); null: none. */
export async function userIdByEmail(deps: WriteDeps, email: string): Promise<number | null> {
  return (await loadState(deps.store, userEmail, emailDigest(email))).userId
}

/** The member or pending invitee this organization has with this email (its own reservation); null: none. */
export async function memberIdInOrg(deps: WriteDeps, orgId: number, email: string): Promise<number | null> {
  return (await loadState(deps.store, orgMemberEmail, { orgId, emailDigest: emailDigest(email) })).userId
}

/**
 * Takes the email for this user's account (sign-in finds them by it). Throws email_taken when another
 * account has it: the address already signs in somewhere, and sign-in must find one person.
 */
export async function claimAccountEmail(deps: WriteDeps, context: CommandContext, input: { userId: number; orgId: number; email: string }) {
  return handleCommand(deps, {
    aggregate: userEmail,
    id: emailDigest(input.email),
    command: { type: 'ReserveUserEmail', user_id: input.userId, org_id: input.orgId },
    context,
  })
}

/** Reserves the email among the organization's members and invites. Throws email_taken when the organization has it. */
export async function reserveOrgMemberEmail(
  deps: WriteDeps,
  context: CommandContext,
  input: { userId: number; orgId: number; email: string },
) {
  return handleCommand(deps, {
    aggregate: orgMemberEmail,
    id: { orgId: input.orgId, emailDigest: emailDigest(input.email) },
    command: { type: 'ReserveUserEmail', user_id: input.userId, org_id: input.orgId },
    context,
    orgId: input.orgId,
  })
}

/** Gives the email back, in the organization and (when theirs) as the account's; for removal and undoing a half-made user. */
async function releaseEmails(
  deps: WriteDeps,
  context: CommandContext,
  input: { userId: number; orgId: number; email: string },
): Promise<Position | null> {
  const release = { type: 'ReleaseUserEmail' as const, user_id: input.userId }
  const inOrg = await handleCommand(deps, {
    aggregate: orgMemberEmail,
    id: { orgId: input.orgId, emailDigest: emailDigest(input.email) },
    command: release,
    context,
    orgId: input.orgId,
  })
  const account = await handleCommand(deps, { aggregate: userEmail, id: emailDigest(input.email), command: release, context })
  return account.position ?? inOrg.position
}

function runUser(deps: WriteDeps, context: CommandContext, userId: number, command: UserCommand) {
  return handleCommand(deps, { aggregate: user, id: userId, command, context }).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError('member', userId)
    throw error
  })
}

async function issueTotp(serviceKey: ServiceKey, email: string) {
  const secret = generateTotpSecret()
  const recoveryCodes = generateRecoveryCodes()
  return {
    sealed: seal(serviceKey, base32Encode(secret)),
    otpauthUri: otpauthUri({ issuer: TOTP_ISSUER, account: email, secret }),
    secretBase32: base32Encode(secret),
    recoveryCodes,
    recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode),
  }
}

export interface InvitedMember {
  readonly userId: number
  readonly orgId: number
  readonly email: string
  readonly role: Role
  /** The one-time invite token (only its sha256 is stored); null for operator-created users. */
  readonly inviteToken: string | null
  readonly inviteExpiresAt: string | null
  readonly position: Position | null
}

/**
 * Adds a person to an organization. The email is reserved in the organization first (one member or invite per
 * address there), then the user stream records the invite. An invite reserves nothing outside the
 * organization and answers alike whatever other organizations have (no probing, no squatting): the address is
 * taken for sign-in only when the invite is accepted (acceptInvite). The operator's create-user makes the
 * account at once, so it takes the sign-in address at once too. An owner-level manager only.
 */
export async function inviteMember(
  deps: PeopleDeps,
  context: CommandContext,
  input: {
    orgId: number
    email: string
    role: Role
    manager: MemberManager
    credentials?: { passwordHash: string; totpSealed: string; recoveryCodeHashes: string[] }
  },
): Promise<InvitedMember> {
  if (!canManageMembers(input.manager)) throw new DomainError('forbidden', 'Only an owner may invite members')
  await assertOrganizationExists(deps, input.orgId)
  const email = normalizeEmail(input.email)
  // A member from before organization reservations existed holds only the account's reservation: their own
  // organization still finds them (telling an organization about its own member reveals nothing).
  const accountId = await userIdByEmail(deps, email)
  if (accountId !== null) {
    const account = await loadUser(deps, accountId)
    if (account.exists && !account.removed && account.orgId === input.orgId)
      throw new DomainError('email_taken', 'A user with this email already exists')
  }
  const userId = await deps.ids.next('user')
  const reservation = { userId, orgId: input.orgId, email }
  if (input.credentials) await claimAccountEmail(deps, context, reservation)
  try {
    await reserveOrgMemberEmail(deps, context, reservation)
  } catch (error) {
    if (input.credentials) await releaseEmails(deps, context, reservation)
    throw error
  }
  const token = input.credentials ? null : mintToken()
  const expiresAt = token === null ? null : new Date(deps.clock().getTime() + INVITE_TTL_MS).toISOString()
  const c = input.credentials
  const outcome = await runUser(deps, context, userId, {
    type: 'InviteMember',
    user_id: userId,
    org_id: input.orgId,
    email,
    role: input.role,
    manager: input.manager,
    invite_token_hash: token === null ? null : sha256(token),
    invite_expires_at: expiresAt,
    ...(c
      ? { credentials: { password_hash: c.passwordHash, totp_secret_sealed: c.totpSealed, recovery_code_hashes: c.recoveryCodeHashes } }
      : {}),
  })
  return { userId, orgId: input.orgId, email, role: input.role, inviteToken: token, inviteExpiresAt: expiresAt, position: outcome.position }
}

export interface CreatedUser extends InvitedMember {
  /** The password, when it was generated (null when the operator gave one). */
  readonly generatedPassword: string | null
  readonly otpauthUri: string
  readonly recoveryCodes: readonly string[]
}

/** The operator's create-user: a member with a password and TOTP in force at once (no invite step). */
export async function createUserWithCredentials(
  deps: PeopleDeps,
  context: CommandContext,
  input: { orgId: number; email: string; role: Role; password?: string },
): Promise<CreatedUser> {
  const password = input.password ?? generatePassword()
  checkPasswordRule(password)
  const totp = await issueTotp(deps.serviceKey, normalizeEmail(input.email))
  const member = await inviteMember(deps, context, {
    orgId: input.orgId,
    email: input.email,
    role: input.role,
    manager: { kind: 'key' },
    credentials: { passwordHash: await hashPassword(password), totpSealed: totp.sealed, recoveryCodeHashes: totp.recoveryCodeHashes },
  })
  return {
    ...member,
    generatedPassword: input.password === undefined ? password : null,
    otpauthUri: totp.otpauthUri,
    recoveryCodes: totp.recoveryCodes,
  }
}

export interface IssuedTotp {
  readonly otpauthUri: string
  readonly secretBase32: string
  readonly recoveryCodes: readonly string[]
  readonly position: Position | null
}

/** The invite page, step 1: set the password; a TOTP secret and recovery codes are issued (shown once). */
export async function acceptInvite(
  deps: PeopleDeps,
  context: CommandContext,
  input: { userId: number; token: string; password: string },
): Promise<IssuedTotp> {
  checkPasswordRule(input.password)
  const state = await loadUser(deps, input.userId)
  const totp = await issueTotp(deps.serviceKey, state.email)
  const command: UserCommand = {
    type: 'AcceptInvite',
    invite_token_hash: sha256(input.token),
    now: deps.clock().toISOString(),
    password_hash: await hashPassword(input.password),
    totp_secret_sealed: totp.sealed,
    recovery_code_hashes: totp.recoveryCodeHashes,
  }
  // Only a usable invite may take the address (decide throws invite_invalid otherwise); then the address
  // becomes this account's sign-in, unless an account already signs in with it (email_taken: the person
  // signs in to that one; one address is one person at sign-in).
  user.decide(command, state)
  const claimed = await claimAccountEmail(deps, context, { userId: input.userId, orgId: state.orgId!, email: state.email })
  let outcome: Awaited<ReturnType<typeof runUser>>
  try {
    outcome = await runUser(deps, context, input.userId, command)
  } catch (error) {
    // The invite went away meanwhile (removed, used): the address is not this account's after all.
    if (claimed.events.length > 0) {
      await handleCommand(deps, {
        aggregate: userEmail,
        id: emailDigest(state.email),
        command: { type: 'ReleaseUserEmail', user_id: input.userId },
        context,
      })
    }
    throw error
  }
  return { otpauthUri: totp.otpauthUri, secretBase32: totp.secretBase32, recoveryCodes: totp.recoveryCodes, position: outcome.position }
}

/** The invite page, step 2: the first code from the authenticator puts the second factor in force. */
export async function confirmTotp(
  deps: PeopleDeps,
  context: CommandContext,
  input: { userId: number; token: string; code: string },
): Promise<{ position: Position | null }> {
  const state = await loadUser(deps, input.userId)
  const now = deps.clock()
  if (state.pendingTotp === null) throw new DomainError('invite_invalid', 'The invite link is unknown, used or expired')
  const step = matchTotp(base32Decode(unseal(deps.serviceKey, state.pendingTotp.sealed)), input.code, now.getTime())
  if (step === null)
    throw new DomainError('totp_code_wrong', 'The code does not match', 'type the 6 digits your authenticator app shows now')
  const outcome = await runUser(deps, context, input.userId, {
    type: 'ConfirmTotp',
    invite_token_hash: sha256(input.token),
    now: now.toISOString(),
    pending_sealed: state.pendingTotp.sealed,
    totp_step: step,
  })
  return { position: outcome.position }
}

export type SignInOutcome =
  | {
      readonly ok: true
      readonly userId: number
      readonly sessionToken: string
      readonly expiresAt: string
      readonly position: Position | null
    }
  | { readonly ok: false; readonly lockedOut: boolean; readonly position: Position | null }

/**
 * Email + password + (TOTP code or recovery code). Every failure answers alike to the caller (`ok: false`):
 * an unknown email costs the same scrypt as a wrong password. Failures of a real member are events, and the
 * fifth within 15 minutes locks the account for 15 minutes (domain/people/user.ts).
 */
export async function signIn(
  deps: PeopleDeps,
  input: { email: string; password: string; code: string; requestId: string | null },
): Promise<SignInOutcome> {
  const failed = { ok: false as const, lockedOut: false, position: null }
  const userId = await userIdByEmail(deps, input.email)
  const state = userId === null ? null : await loadUser(deps, userId)
  if (state === null || !isActive(state)) {
    await verifyPassword(input.password, DUMMY_PASSWORD_HASH)
    return failed
  }
  const now = deps.clock()
  const passwordOk = await verifyPassword(input.password, state.passwordHash!)
  let factor: SecondFactor | null = null
  const code = input.code.trim()
  if (/^\d[\d\s]*$/.test(code)) {
    const step = matchTotp(base32Decode(unseal(deps.serviceKey, state.totp!.sealed)), code, now.getTime())
    if (step !== null) factor = { kind: 'totp', step }
  } else if (normalizeRecoveryCode(code).length > 0) {
    factor = { kind: 'recovery_code', hash: hashRecoveryCode(code) }
  }
  const sessionToken = mintToken()
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString()
  const context: CommandContext = {
    actor: { kind: 'user', id: state.userId },
    requestId: input.requestId,
    correlationId: input.requestId ?? sha256(sessionToken).slice(0, 32),
    causationId: null,
  }
  try {
    const outcome = await runUser(deps, context, state.userId, {
      type: 'SignIn',
      now: now.toISOString(),
      password_verified_against: passwordOk ? state.passwordHash : null,
      second_factor: factor,
      session_hash: sha256(sessionToken),
      expires_at: expiresAt,
    })
    if (outcome.events.some((e) => e.type === 'UserSignedIn'))
      return { ok: true, userId: state.userId, sessionToken, expiresAt, position: outcome.position }
    return { ok: false, lockedOut: outcome.events.some((e) => e.type === 'UserLockedOut'), position: outcome.position }
  } catch (error) {
    if (error instanceof DomainError && error.code === 'sign_in_failed') return failed
    throw error
  }
}

export async function signOut(
  deps: WriteDeps,
  context: CommandContext,
  input: { userId: number; sessionToken: string },
): Promise<{ position: Position | null }> {
  const outcome = await runUser(deps, context, input.userId, { type: 'SignOut', session_hash: sha256(input.sessionToken) })
  return { position: outcome.position }
}

export async function changeMemberRole(
  deps: WriteDeps,
  context: CommandContext,
  input: { userId: number; callerOrgId: number | null; role: Role; manager: MemberManager },
): Promise<{ orgId: number; email: string; role: Role; position: Position | null }> {
  const outcome = await runUser(deps, context, input.userId, {
    type: 'ChangeRole',
    caller_org_id: input.callerOrgId,
    role: input.role,
    manager: input.manager,
  })
  return { orgId: outcome.state.orgId!, email: outcome.state.email, role: outcome.state.role, position: outcome.position }
}

/** Removes the member (their sessions end with it) and releases the email, so it can be invited again. */
export async function removeMember(
  deps: WriteDeps,
  context: CommandContext,
  input: { userId: number; callerOrgId: number | null; manager: MemberManager },
): Promise<{ position: Position | null }> {
  const outcome = await runUser(deps, context, input.userId, {
    type: 'RemoveMember',
    caller_org_id: input.callerOrgId,
    manager: input.manager,
  })
  const released = await releaseEmails(deps, context, { userId: input.userId, orgId: outcome.state.orgId!, email: outcome.state.email })
  return { position: released ?? outcome.position }
}

export interface IssuedPasswordReset {
  readonly userId: number
  readonly email: string
  readonly token: string
  readonly expiresAt: string
  readonly position: Position | null
}

/**
 * Records a password reset for the member with this email and returns the one-time token (its sha256 is
 * what the log keeps); null when the email is unknown, the member cannot sign in, or a reset was issued in
 * the last 5 minutes. Callers must answer the same whichever it was.
 */
export async function requestPasswordReset(
  deps: WriteDeps,
  context: CommandContext,
  input: { email: string },
): Promise<IssuedPasswordReset | null> {
  const userId = await userIdByEmail(deps, input.email)
  if (userId === null) return null
  const token = mintToken()
  const now = deps.clock()
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS).toISOString()
  const outcome = await runUser(deps, context, userId, {
    type: 'RequestPasswordReset',
    now: now.toISOString(),
    token_hash: sha256(token),
    expires_at: expiresAt,
  })
  if (outcome.events.length === 0) return null
  return { userId, email: outcome.state.email, token, expiresAt, position: outcome.position }
}

/** Sets a new password with a reset token (single use; every session of the member ends). */
export async function usePasswordReset(
  deps: WriteDeps,
  context: CommandContext,
  input: { userId: number; token: string; password: string },
): Promise<{ position: Position | null }> {
  checkPasswordRule(input.password)
  const outcome = await runUser(deps, context, input.userId, {
    type: 'UsePasswordReset',
    now: deps.clock().toISOString(),
    token_hash: sha256(input.token),
    password_hash: await hashPassword(input.password),
  })
  return { position: outcome.position }
}
