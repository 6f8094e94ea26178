import { z } from 'zod'
import { Id } from '../shared/values.js'
import { RoleSchema } from './roles.js'
import type { SsoUserEvent } from '../sso/events.js'

/**
 * People: one stream per user, `user-<id>` (membership, password, second factor, sign-ins, lock-out and
 * reset tokens are decided against that person's state), and reservation streams per email (user-email.ts):
 * `user_email-<sha256 of the normalized email>` for the account the address signs in as (unique across the
 * service), `org_member_email-<org id>-<sha256>` for an organization's member or invite (unique within it),
 * each appended with expected revision, so two claims of one address cannot both win. The digest, not the
 * address, names the stream so the address appears only in event data (which can be shredded).
 *
 * No secret ever enters the log in plaintext: passwords as scrypt hashes (salt and parameters inside the
 * string), the TOTP secret sealed with the service key (AES-256-GCM), recovery codes, invite tokens, reset
 * tokens and session tokens as sha256 hex.
 */
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/)
const Time = z.iso.datetime({ offset: true })
/** `scrypt$N$r$p$<salt base64url>$<hash base64url>` */
const PasswordHash = z.string().regex(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/)
const Sealed = z.string().min(1).max(2000)

/** An owner (or a write key, or the operator's create-user) adds a person to an organization with a role. */
export const OrgMemberInvited = z.object({
  user_id: Id,
  org_id: Id,
  email: z.string().min(3).max(254),
  role: RoleSchema,
  /** sha256 of the one-time invite token; null when the operator created the user with credentials at once. */
  invite_token_hash: Sha256.nullable(),
  invite_expires_at: Time.nullable(),
})

export const UserEmailReserved = z.object({ user_id: Id, org_id: Id })
export const UserEmailReleased = z.object({ user_id: Id })

export const UserPasswordSet = z.object({
  user_id: Id,
  password_hash: PasswordHash,
  via: z.enum(['invite', 'reset', 'operator']),
})

/** A TOTP secret (sealed) and recovery codes (hashed) handed to the person; not in force until enrolled. */
export const UserTotpSecretIssued = z.object({
  user_id: Id,
  totp_secret_sealed: Sealed,
  recovery_code_hashes: z.array(Sha256).min(1).max(20),
})

/** The issued secret is in force. `totp_step`: the step of the code that confirmed it (null: operator-created). */
export const UserTotpEnrolled = z.object({ user_id: Id, totp_step: z.number().int().nonnegative().nullable() })

export const UserSignedIn = z.object({
  user_id: Id,
  org_id: Id,
  /** sha256 of the session cookie's token. */
  session_hash: Sha256,
  expires_at: Time,
  second_factor: z.enum(['totp', 'recovery_code']),
  /** The TOTP time step used (a code is never accepted twice). */
  totp_step: z.number().int().nonnegative().nullable(),
  /** The recovery code used up, as its hash. */
  recovery_code_hash: Sha256.nullable(),
})

/** `at`: when it failed (the lock-out window counts failures by it). */
export const UserSignInFailed = z.object({ user_id: Id, reason: z.enum(['password', 'second_factor']), at: Time })
export const UserLockedOut = z.object({ user_id: Id, until: Time, failures: z.number().int().positive() })
export const UserSignedOut = z.object({ user_id: Id, session_hash: Sha256 })

export const OrgMemberRoleChanged = z.object({ user_id: Id, org_id: Id, role: RoleSchema })
export const OrgMemberRemoved = z.object({ user_id: Id, org_id: Id })

export const PasswordResetRequested = z.object({ user_id: Id, token_hash: Sha256, requested_at: Time, expires_at: Time })
export const PasswordResetUsed = z.object({ user_id: Id, token_hash: Sha256 })

export const userEventSchemas = {
  OrgMemberInvited,
  UserPasswordSet,
  UserTotpSecretIssued,
  UserTotpEnrolled,
  UserSignedIn,
  UserSignInFailed,
  UserLockedOut,
  UserSignedOut,
  OrgMemberRoleChanged,
  OrgMemberRemoved,
  PasswordResetRequested,
  PasswordResetUsed,
} as const

export const userEmailEventSchemas = { UserEmailReserved, UserEmailReleased } as const

type Data<T extends z.ZodType> = z.infer<T>

export type UserEvent =
  | { type: 'OrgMemberInvited'; data: Data<typeof OrgMemberInvited> }
  | { type: 'UserPasswordSet'; data: Data<typeof UserPasswordSet> }
  | { type: 'UserTotpSecretIssued'; data: Data<typeof UserTotpSecretIssued> }
  | { type: 'UserTotpEnrolled'; data: Data<typeof UserTotpEnrolled> }
  | { type: 'UserSignedIn'; data: Data<typeof UserSignedIn> }
  | { type: 'UserSignInFailed'; data: Data<typeof UserSignInFailed> }
  | { type: 'UserLockedOut'; data: Data<typeof UserLockedOut> }
  | { type: 'UserSignedOut'; data: Data<typeof UserSignedOut> }
  | { type: 'OrgMemberRoleChanged'; data: Data<typeof OrgMemberRoleChanged> }
  | { type: 'OrgMemberRemoved'; data: Data<typeof OrgMemberRemoved> }
  | { type: 'PasswordResetRequested'; data: Data<typeof PasswordResetRequested> }
  | { type: 'PasswordResetUsed'; data: Data<typeof PasswordResetUsed> }
  /** Single sign-on (schemas in domain/sso/events.ts). */
  | SsoUserEvent

export type UserEmailEvent =
  | { type: 'UserEmailReserved'; data: Data<typeof UserEmailReserved> }
  | { type: 'UserEmailReleased'; data: Data<typeof UserEmailReleased> }
