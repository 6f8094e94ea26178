import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { UserEmailEvent } from './events.js'

/**
 * Email uniqueness has two decision points, both folded by this aggregate (the digest is the sha256 hex of the
 * normalized email; commands/people compute it, the domain does no hashing):
 *
 * - `user_email-<digest>`: the account this address signs in as, unique across the service so sign-in,
 *   password reset and SSO always find one person. Taken only when an account comes to be: an invite
 *   accepted, the operator's create-user, an SSO provisioning or an SSO sign-in that takes up an invite.
 * - `org_member_email-<org id>-<digest>`: the member (or pending invite) an organization has with this
 *   address, so one organization invites an address once. An invite reserves only this one: an invite may
 *   neither reveal nor reserve an address outside its organization, so another organization's
 *   member or pending invite never makes it answer differently.
 *
 * Both are released when the member is removed, so the address can be invited again as a new user. (Invites
 * recorded before this rule reserved `user_email-` at once; acceptance then finds it already theirs.)
 */
export const userEmailStream = (emailDigest: string) => `user_email-${emailDigest}`
export const orgMemberEmailStream = (orgId: number, emailDigest: string) => `org_member_email-${orgId}-${emailDigest}`

export interface UserEmailState {
  readonly userId: number | null
  readonly orgId: number | null
}

export type UserEmailCommand = { type: 'ReserveUserEmail'; user_id: number; org_id: number } | { type: 'ReleaseUserEmail'; user_id: number }

export const userEmail: Aggregate<UserEmailState, UserEmailCommand, UserEmailEvent, string> = {
  streamOf: userEmailStream,
  orgOf: (state) => state.orgId,
  initialState: () => ({ userId: null, orgId: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserEmailReserved':
        return { userId: event.data.user_id, orgId: event.data.org_id }
      case 'UserEmailReleased':
        return state.userId === event.data.user_id ? { userId: null, orgId: state.orgId } : state
      default:
        return assertNever(event)
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ReserveUserEmail':
        if (state.userId === command.user_id) return []
        if (state.userId !== null) throw new DomainError('email_taken', 'A user with this email already exists')
        return [{ type: 'UserEmailReserved', data: { user_id: command.user_id, org_id: command.org_id } }]
      case 'ReleaseUserEmail':
        if (state.userId !== command.user_id) return []
        return [{ type: 'UserEmailReleased', data: { user_id: command.user_id } }]
      default:
        return assertNever(command)
    }
  },
}

/** The same decision on an organization's member address (`org_member_email-<org id>-<digest>`); its events name no organization of their own, so each command gives it. */
export const orgMemberEmail: Aggregate<
  UserEmailState,
  UserEmailCommand,
  UserEmailEvent,
  { readonly orgId: number; readonly emailDigest: string }
> = {
  // The same decision without userEmail's orgOf: each command names the organization itself.
  streamOf: (id) => orgMemberEmailStream(id.orgId, id.emailDigest),
  initialState: userEmail.initialState,
  evolve: userEmail.evolve,
  decide: userEmail.decide,
}
