/**
 * The user aggregate (domain/people/user.ts) and the email reservation, given/when/then: who may manage
 * members, the invite's life, sign-in verdicts with lock-out arithmetic and code replay, resets.
 */
import t from 'tap'
import type { UserEvent } from '../../domain/people/events.js'
import { userEmail } from '../../domain/people/user-email.js'
import { user, type UserCommand } from '../../domain/people/user.js'
import { spec } from './given-when-then.js'

const given = spec(user)
/** A sha256-shaped digest, distinct per letter. */
const H = (c: string) => (c.charCodeAt(0) % 16).toString(16).repeat(64)
const USER = 5
const ORG = 2
const T0 = '2026-11-25T12:00:00.000Z'
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString()
const PW = 'scrypt$16384$8$1$c2FsdA$aGFzaA'

const invited: UserEvent = {
  type: 'OrgMemberInvited',
  data: { user_id: USER, org_id: ORG, email: 'a@example.com', role: 'viewer', invite_token_hash: H('a'), invite_expires_at: at(60) },
}
const active: UserEvent[] = [
  invited,
  { type: 'UserPasswordSet', data: { user_id: USER, password_hash: PW, via: 'invite' } },
  { type: 'UserTotpSecretIssued', data: { user_id: USER, totp_secret_sealed: 'v1.k.iv.tag.ct', recovery_code_hashes: [H('r')] } },
  { type: 'UserTotpEnrolled', data: { user_id: USER, totp_step: 100 } },
]
const signIn = (minutes: number, fields: Partial<Extract<UserCommand, { type: 'SignIn' }>> = {}): UserCommand => ({
  type: 'SignIn',
  now: at(minutes),
  password_verified_against: PW,
  second_factor: { kind: 'totp', step: 200 },
  session_hash: H('s'),
  expires_at: at(minutes + 720),
  ...fields,
})
const failed = (minutes: number, reason: 'password' | 'second_factor' = 'password'): UserEvent => ({
  type: 'UserSignInFailed',
  data: { user_id: USER, reason, at: at(minutes) },
})

t.test('only owners (or write keys) manage members', async (t) => {
  const invite = (manager: any): UserCommand => ({
    type: 'InviteMember',
    user_id: USER,
    org_id: ORG,
    email: 'a@example.com',
    role: 'viewer',
    manager,
    invite_token_hash: H('a'),
    invite_expires_at: at(60),
  })
  given()
    .when(invite({ kind: 'key' }))
    .then(t, [invited])
  given()
    .when(invite({ kind: 'member', role: 'owner', user_id: 1 }))
    .then(t, [invited])
  for (const role of ['seo_editor', 'web_builder', 'viewer'])
    given()
      .when(invite({ kind: 'member', role, user_id: 1 }))
      .thenThrows(t, 'forbidden')
  given(...active)
    .when({ type: 'ChangeRole', caller_org_id: ORG, role: 'owner', manager: { kind: 'member', role: 'seo_editor', user_id: 1 } })
    .thenThrows(t, 'forbidden')
  given(...active)
    .when({ type: 'RemoveMember', caller_org_id: ORG, manager: { kind: 'member', role: 'viewer', user_id: 1 } })
    .thenThrows(t, 'forbidden')
  given(...active)
    .when({ type: 'ChangeRole', caller_org_id: ORG, role: 'owner', manager: { kind: 'key' } })
    .then(t, [{ type: 'OrgMemberRoleChanged', data: { user_id: USER, org_id: ORG, role: 'owner' } }])
  given(...active)
    .when({ type: 'ChangeRole', caller_org_id: ORG, role: 'viewer', manager: { kind: 'key' } })
    .thenNothingHappens(t)
  given(...active)
    .when({ type: 'ChangeRole', caller_org_id: ORG + 1, role: 'owner', manager: { kind: 'key' } })
    .thenThrows(t, 'not_found')
  given()
    .when({ type: 'RemoveMember', caller_org_id: null, manager: { kind: 'key' } })
    .thenThrows(t, 'not_found')
})

t.test('the invite works until it expires or enrolment completes', async (t) => {
  const accept = (minutes: number, token = H('a')): UserCommand => ({
    type: 'AcceptInvite',
    invite_token_hash: token,
    now: at(minutes),
    password_hash: PW,
    totp_secret_sealed: 'v1.k.iv.tag.ct',
    recovery_code_hashes: [H('r')],
  })
  given(invited).when(accept(1)).then(t, active.slice(1, 3))
  given(invited).when(accept(61)).thenThrows(t, 'invite_invalid')
  given(invited)
    .when(accept(1, H('b')))
    .thenThrows(t, 'invite_invalid')
  given(...active)
    .when(accept(1))
    .thenThrows(t, 'invite_invalid')
  given(...active.slice(0, 3))
    .when({ type: 'ConfirmTotp', invite_token_hash: H('a'), now: at(2), pending_sealed: 'other', totp_step: 5 })
    .thenThrows(t, 'invite_invalid')
})

t.test('sign-in verdicts, code replay and lock-out', async (t) => {
  given(...active)
    .when(signIn(0))
    .then(t, [
      {
        type: 'UserSignedIn',
        data: {
          user_id: USER,
          org_id: ORG,
          session_hash: H('s'),
          expires_at: at(720),
          second_factor: 'totp',
          totp_step: 200,
          recovery_code_hash: null,
        },
      },
    ])
  given(...active)
    .when(signIn(0, { second_factor: { kind: 'totp', step: 100 } }))
    .then(t, [failed(0, 'second_factor')])
  given(...active)
    .when(signIn(0, { password_verified_against: null }))
    .then(t, [failed(0)])
  given(...active)
    .when(signIn(0, { password_verified_against: 'scrypt$1$1$1$a$b' }))
    .then(t, [failed(0)])
  given(...active)
    .when(signIn(0, { second_factor: { kind: 'recovery_code', hash: H('x') } }))
    .then(t, [failed(0, 'second_factor')])
  given(invited).when(signIn(0)).thenThrows(t, 'sign_in_failed', { detail: 'not an active member' })

  const four = [failed(1), failed(2), failed(3), failed(4)]
  given(...active, ...four)
    .when(signIn(5, { password_verified_against: null }))
    .then(t, [failed(5), { type: 'UserLockedOut', data: { user_id: USER, until: at(20), failures: 5 } }])
  // Failures older than 15 minutes do not count.
  given(...active, ...four)
    .when(signIn(17, { password_verified_against: null }))
    .then(t, [failed(17)])
  const locked: UserEvent = { type: 'UserLockedOut', data: { user_id: USER, until: at(20), failures: 5 } }
  given(...active, ...four, failed(5), locked)
    .when(signIn(19))
    .thenThrows(t, 'sign_in_failed', { detail: 'locked' })
  given(...active, ...four, failed(5), locked)
    .when(signIn(21))
    .then(t, [
      {
        type: 'UserSignedIn',
        data: {
          user_id: USER,
          org_id: ORG,
          session_hash: H('s'),
          expires_at: at(741),
          second_factor: 'totp',
          totp_step: 200,
          recovery_code_hash: null,
        },
      },
    ])
})

t.test('password resets: throttled, single use, expiring', async (t) => {
  const requested: UserEvent = {
    type: 'PasswordResetRequested',
    data: { user_id: USER, token_hash: H('t'), requested_at: at(0), expires_at: at(30) },
  }
  given(...active)
    .when({ type: 'RequestPasswordReset', now: at(0), token_hash: H('t'), expires_at: at(30) })
    .then(t, [requested])
  given(...active, requested)
    .when({ type: 'RequestPasswordReset', now: at(4), token_hash: H('u'), expires_at: at(34) })
    .thenNothingHappens(t)
  given(invited)
    .when({ type: 'RequestPasswordReset', now: at(0), token_hash: H('t'), expires_at: at(30) })
    .thenNothingHappens(t)
  const use = (minutes: number, token = H('t')): UserCommand => ({
    type: 'UsePasswordReset',
    now: at(minutes),
    token_hash: token,
    password_hash: PW,
  })
  given(...active, requested)
    .when(use(10))
    .then(t, [
      { type: 'PasswordResetUsed', data: { user_id: USER, token_hash: H('t') } },
      { type: 'UserPasswordSet', data: { user_id: USER, password_hash: PW, via: 'reset' } },
    ])
  given(...active, requested)
    .when(use(31))
    .thenThrows(t, 'password_reset_invalid')
  given(...active, requested, { type: 'PasswordResetUsed', data: { user_id: USER, token_hash: H('t') } })
    .when(use(10))
    .thenThrows(t, 'password_reset_invalid')
})

t.test('an email is reserved once, and free again when released', async (t) => {
  const e = spec(userEmail)
  e()
    .when({ type: 'ReserveUserEmail', user_id: 1, org_id: ORG })
    .then(t, [{ type: 'UserEmailReserved', data: { user_id: 1, org_id: ORG } }])
  e({ type: 'UserEmailReserved', data: { user_id: 1, org_id: ORG } })
    .when({ type: 'ReserveUserEmail', user_id: 2, org_id: ORG })
    .thenThrows(t, 'email_taken')
  e({ type: 'UserEmailReserved', data: { user_id: 1, org_id: ORG } }, { type: 'UserEmailReleased', data: { user_id: 1 } })
    .when({ type: 'ReserveUserEmail', user_id: 2, org_id: ORG })
    .then(t, [{ type: 'UserEmailReserved', data: { user_id: 2, org_id: ORG } }])
})
