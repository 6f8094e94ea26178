import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { UserEvent } from './events.js'
import { LOCKOUT_DURATION_MS, LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, PASSWORD_RESET_THROTTLE_MS, SESSION_TTL_MS } from './policy.js'
import { canManageMembers, type MemberManager, type Role } from './roles.js'
import type { SsoProtocol } from '../sso/events.js'

/** One person, one stream: `user-<id>`. */
export const userStream = (userId: number) => `user-${userId}`

export interface UserState {
  readonly exists: boolean
  readonly userId: number
  readonly orgId: number | null
  readonly email: string
  readonly role: Role
  readonly removed: boolean
  readonly passwordHash: string | null
  readonly inviteTokenHash: string | null
  /** ms since epoch */
  readonly inviteExpiresAt: number | null
  /** Issued by the invite page, not yet confirmed with a first code. */
  readonly pendingTotp: { readonly sealed: string; readonly recoveryCodeHashes: readonly string[] } | null
  /** In force: the sealed secret and the recovery codes not used yet. */
  readonly totp: { readonly sealed: string; readonly recoveryCodeHashes: readonly string[] } | null
  readonly lastTotpStep: number | null
  /** Times (ms) of the failed sign-ins since the last success or lock-out. */
  readonly failures: readonly number[]
  readonly lockedUntil: number | null
  /** Live session hashes and when each expires (ms). */
  readonly sessions: ReadonlyMap<string, number>
  /** Reset token hashes not used yet, with their expiry (ms). */
  readonly resets: ReadonlyMap<string, number>
  readonly lastResetRequestedAt: number | null
}

/** A member who can sign in: invited, password set, second factor enrolled, not removed. */
export const isActive = (state: UserState) => state.exists && !state.removed && state.passwordHash !== null && state.totp !== null

export type SecondFactor = { readonly kind: 'totp'; readonly step: number } | { readonly kind: 'recovery_code'; readonly hash: string }

export type UserCommand =
  | {
      type: 'InviteMember'
      user_id: number
      org_id: number
      email: string
      role: Role
      manager: MemberManager
      invite_token_hash: string | null
      invite_expires_at: string | null
      /** The operator's create-user: credentials in force at once (no invite step). */
      credentials?: { password_hash: string; totp_secret_sealed: string; recovery_code_hashes: string[] }
    }
  | {
      type: 'AcceptInvite'
      invite_token_hash: string
      now: string
      password_hash: string
      totp_secret_sealed: string
      recovery_code_hashes: string[]
    }
  /** `totp_step`: the step of the code the person typed, verified against the pending secret. */
  | { type: 'ConfirmTotp'; invite_token_hash: string; now: string; pending_sealed: string; totp_step: number }
  | {
      type: 'SignIn'
      now: string
      /** The stored hash the password was verified against; null when it did not match. */
      password_verified_against: string | null
      /** The second factor that matched (a TOTP step, or a recovery code's hash); null when none did. */
      second_factor: SecondFactor | null
      session_hash: string
      expires_at: string
    }
  | { type: 'SignOut'; session_hash: string }
  | { type: 'ChangeRole'; caller_org_id: number | null; role: Role; manager: MemberManager }
  | { type: 'RemoveMember'; caller_org_id: number | null; manager: MemberManager }
  | { type: 'RequestPasswordReset'; now: string; token_hash: string; expires_at: string }
  | { type: 'UsePasswordReset'; now: string; token_hash: string; password_hash: string }
  /** An identity provider vouched for an unknown email: the person joins (domain/sso/provisioning.ts decided it). */
  | {
      type: 'ProvisionBySso'
      user_id: number
      org_id: number
      email: string
      role: Role
      provider_id: number
      protocol: SsoProtocol
      via: 'allowed_domain' | 'signup'
    }
  /** An identity provider vouched for this member's email: a session, standing in for password and TOTP. */
  | {
      type: 'SignInWithSso'
      provider_id: number
      protocol: SsoProtocol
      provider_org_id: number
      subject: string
      session_hash: string
      expires_at: string
    }

export const initialUserState = (): UserState => ({
  exists: false,
  userId: 0,
  orgId: null,
  email: '',
  role: 'viewer',
  removed: false,
  passwordHash: null,
  inviteTokenHash: null,
  inviteExpiresAt: null,
  pendingTotp: null,
  totp: null,
  lastTotpStep: null,
  failures: [],
  lockedUntil: null,
  sessions: new Map(),
  resets: new Map(),
  lastResetRequestedAt: null,
})

const ms = (iso: string) => Date.parse(iso)

function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'OrgMemberInvited': {
      const d = event.data
      return {
        ...state,
        exists: true,
        userId: d.user_id,
        orgId: d.org_id,
        email: d.email,
        role: d.role,
        inviteTokenHash: d.invite_token_hash,
        inviteExpiresAt: d.invite_expires_at === null ? null : ms(d.invite_expires_at),
      }
    }
    case 'UserPasswordSet':
      return { ...state, passwordHash: event.data.password_hash }
    case 'UserTotpSecretIssued':
      return { ...state, pendingTotp: { sealed: event.data.totp_secret_sealed, recoveryCodeHashes: event.data.recovery_code_hashes } }
    case 'UserTotpEnrolled':
      // The invite is used up once the second factor is in force.
      return {
        ...state,
        totp: state.pendingTotp,
        pendingTotp: null,
        lastTotpStep: event.data.totp_step,
        inviteTokenHash: null,
        inviteExpiresAt: null,
      }
    case 'UserSignedIn': {
      const d = event.data
      const expiresAt = ms(d.expires_at)
      // Sessions that had expired by this sign-in are forgotten, so the state stays small.
      const sessions = new Map([...state.sessions].filter(([, at]) => at > expiresAt - SESSION_TTL_MS))
      sessions.set(d.session_hash, expiresAt)
      const totp =
        state.totp && d.recovery_code_hash !== null
          ? { ...state.totp, recoveryCodeHashes: state.totp.recoveryCodeHashes.filter((h) => h !== d.recovery_code_hash) }
          : state.totp
      return { ...state, sessions, totp, lastTotpStep: d.totp_step ?? state.lastTotpStep, failures: [], lockedUntil: null }
    }
    case 'UserSignInFailed':
      return { ...state, failures: [...state.failures, ms(event.data.at)].slice(-LOCKOUT_FAILURES) }
    case 'UserLockedOut':
      return { ...state, lockedUntil: ms(event.data.until), failures: [] }
    case 'UserSignedOut': {
      const sessions = new Map(state.sessions)
      sessions.delete(event.data.session_hash)
      return { ...state, sessions }
    }
    case 'OrgMemberRoleChanged':
      return { ...state, role: event.data.role }
    case 'OrgMemberRemoved':
      return { ...state, removed: true, sessions: new Map(), resets: new Map(), inviteTokenHash: null, inviteExpiresAt: null }
    case 'PasswordResetRequested': {
      const d = event.data
      const requestedAt = ms(d.requested_at)
      const resets = new Map([...state.resets].filter(([, at]) => at > requestedAt))
      resets.set(d.token_hash, ms(d.expires_at))
      return { ...state, resets, lastResetRequestedAt: requestedAt }
    }
    case 'PasswordResetUsed': {
      // A used reset ends every session and every other outstanding reset link.
      return { ...state, resets: new Map(), sessions: new Map() }
    }
    case 'OrgMemberProvisionedBySso': {
      const d = event.data
      return { ...state, exists: true, userId: d.user_id, orgId: d.org_id, email: d.email, role: d.role }
    }
    case 'UserSignedInWithSso': {
      const d = event.data
      const expiresAt = ms(d.expires_at)
      const sessions = new Map([...state.sessions].filter(([, at]) => at > expiresAt - SESSION_TTL_MS))
      sessions.set(d.session_hash, expiresAt)
      // The provider proved the address: an open invite is used up (its page would otherwise still set a password).
      return { ...state, sessions, inviteTokenHash: null, inviteExpiresAt: null }
    }
    default:
      return assertNever(event)
  }
}

const signInFailed = (detail: string) => new DomainError('sign_in_failed', 'Sign-in failed', detail)

/** A member of another organization, a removed one and a missing one answer alike. */
function requireMember(state: UserState, callerOrgId: number | null, userId: number): void {
  if (!state.exists || state.removed || (callerOrgId !== null && state.orgId !== callerOrgId)) throw new NotFoundError('member', userId)
}

function requireManager(manager: MemberManager): void {
  if (!canManageMembers(manager))
    throw new DomainError('forbidden', 'Only an owner may manage members', `role ${manager.kind === 'member' ? manager.role : 'key'}`)
}

/** The invite is still usable: the token matches, it has not expired, and enrolment is not complete. */
function requireInvite(state: UserState, tokenHash: string, now: string): void {
  const usable =
    state.exists &&
    !state.removed &&
    state.totp === null &&
    state.inviteTokenHash !== null &&
    state.inviteTokenHash === tokenHash &&
    state.inviteExpiresAt !== null &&
    state.inviteExpiresAt > ms(now)
  if (!usable) throw new DomainError('invite_invalid', 'The invite link is unknown, used or expired')
}

function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'InviteMember': {
      requireManager(command.manager)
      if (state.exists) throw new DomainError('already_exists', 'The user already exists', `user ${command.user_id}`)
      const events: UserEvent[] = [
        {
          type: 'OrgMemberInvited',
          data: {
            user_id: command.user_id,
            org_id: command.org_id,
            email: command.email,
            role: command.role,
            invite_token_hash: command.invite_token_hash,
            invite_expires_at: command.invite_expires_at,
          },
        },
      ]
      const c = command.credentials
      if (c) {
        events.push(
          { type: 'UserPasswordSet', data: { user_id: command.user_id, password_hash: c.password_hash, via: 'operator' } },
          {
            type: 'UserTotpSecretIssued',
            data: { user_id: command.user_id, totp_secret_sealed: c.totp_secret_sealed, recovery_code_hashes: c.recovery_code_hashes },
          },
          { type: 'UserTotpEnrolled', data: { user_id: command.user_id, totp_step: null } },
        )
      }
      return events
    }
    case 'AcceptInvite': {
      requireInvite(state, command.invite_token_hash, command.now)
      return [
        { type: 'UserPasswordSet', data: { user_id: state.userId, password_hash: command.password_hash, via: 'invite' } },
        {
          type: 'UserTotpSecretIssued',
          data: {
            user_id: state.userId,
            totp_secret_sealed: command.totp_secret_sealed,
            recovery_code_hashes: command.recovery_code_hashes,
          },
        },
      ]
    }
    case 'ConfirmTotp': {
      requireInvite(state, command.invite_token_hash, command.now)
      // The code was checked against this secret: a newer one issued meanwhile (the page posted twice) wins.
      if (state.pendingTotp === null || state.pendingTotp.sealed !== command.pending_sealed || state.passwordHash === null) {
        throw new DomainError('invite_invalid', 'Set a password first: the invite page issues the authenticator secret')
      }
      return [{ type: 'UserTotpEnrolled', data: { user_id: state.userId, totp_step: command.totp_step } }]
    }
    case 'SignIn': {
      if (!isActive(state)) throw signInFailed('not an active member')
      const now = ms(command.now)
      // While locked, nothing is checked and nothing recorded: the lock-out bounds both guessing and the log.
      if (state.lockedUntil !== null && state.lockedUntil > now) throw signInFailed('locked')
      const passwordOk = command.password_verified_against !== null && command.password_verified_against === state.passwordHash
      const factor = command.second_factor
      const factorOk =
        factor !== null &&
        (factor.kind === 'totp'
          ? state.lastTotpStep === null || factor.step > state.lastTotpStep
          : state.totp!.recoveryCodeHashes.includes(factor.hash))
      if (passwordOk && factorOk) {
        return [
          {
            type: 'UserSignedIn',
            data: {
              user_id: state.userId,
              org_id: state.orgId!,
              session_hash: command.session_hash,
              expires_at: command.expires_at,
              second_factor: factor.kind,
              totp_step: factor.kind === 'totp' ? factor.step : null,
              recovery_code_hash: factor.kind === 'recovery_code' ? factor.hash : null,
            },
          },
        ]
      }
      const failed: UserEvent = {
        type: 'UserSignInFailed',
        data: { user_id: state.userId, reason: passwordOk ? 'second_factor' : 'password', at: command.now },
      }
      const recent = state.failures.filter((at) => at > now - LOCKOUT_WINDOW_MS).length + 1
      if (recent < LOCKOUT_FAILURES) return [failed]
      return [
        failed,
        {
          type: 'UserLockedOut',
          data: { user_id: state.userId, until: new Date(now + LOCKOUT_DURATION_MS).toISOString(), failures: recent },
        },
      ]
    }
    case 'SignOut':
      if (!state.sessions.has(command.session_hash)) return []
      return [{ type: 'UserSignedOut', data: { user_id: state.userId, session_hash: command.session_hash } }]
    case 'ChangeRole': {
      requireMember(state, command.caller_org_id, state.userId)
      requireManager(command.manager)
      if (state.role === command.role) return []
      return [{ type: 'OrgMemberRoleChanged', data: { user_id: state.userId, org_id: state.orgId!, role: command.role } }]
    }
    case 'RemoveMember': {
      requireMember(state, command.caller_org_id, state.userId)
      requireManager(command.manager)
      return [{ type: 'OrgMemberRemoved', data: { user_id: state.userId, org_id: state.orgId! } }]
    }
    case 'RequestPasswordReset': {
      const now = ms(command.now)
      // Silently nothing for a person who cannot sign in anyway, or who asked a moment ago: the page answers
      // the same either way (no account enumeration, no mail flood).
      if (!isActive(state)) return []
      if (state.lastResetRequestedAt !== null && state.lastResetRequestedAt > now - PASSWORD_RESET_THROTTLE_MS) return []
      return [
        {
          type: 'PasswordResetRequested',
          data: { user_id: state.userId, token_hash: command.token_hash, requested_at: command.now, expires_at: command.expires_at },
        },
      ]
    }
    case 'UsePasswordReset': {
      const expiresAt = state.resets.get(command.token_hash)
      if (!isActive(state) || expiresAt === undefined || expiresAt <= ms(command.now)) {
        throw new DomainError('password_reset_invalid', 'The password reset link is unknown, used or expired')
      }
      return [
        { type: 'PasswordResetUsed', data: { user_id: state.userId, token_hash: command.token_hash } },
        { type: 'UserPasswordSet', data: { user_id: state.userId, password_hash: command.password_hash, via: 'reset' } },
      ]
    }
    case 'ProvisionBySso': {
      if (state.exists) throw new DomainError('already_exists', 'The user already exists', `user ${command.user_id}`)
      const { type: _type, ...data } = command
      return [{ type: 'OrgMemberProvisionedBySso', data }]
    }
    case 'SignInWithSso': {
      // Only a member of the provider's own organization (domain/sso/provisioning.ts says why).
      if (!state.exists || state.removed || state.orgId !== command.provider_org_id)
        throw signInFailed('not a member of the provider organization')
      return [
        {
          type: 'UserSignedInWithSso',
          data: {
            user_id: state.userId,
            org_id: state.orgId,
            provider_id: command.provider_id,
            protocol: command.protocol,
            session_hash: command.session_hash,
            expires_at: command.expires_at,
            subject: command.subject,
          },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const user: Aggregate<UserState, UserCommand, UserEvent> = {
  streamOf: userStream,
  orgOf: (state) => state.orgId,
  initialState: initialUserState,
  evolve: evolveUser,
  decide: decideUser,
}
