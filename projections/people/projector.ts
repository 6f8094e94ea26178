import { sql } from 'kysely'
import { occurredAt, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'
import type { ReadDb } from '../tables.js'

/**
 * Ends the user's sessions that were open at `at`. Sessions begun after it are left alone: an event that ends
 * every session, redelivered after a later sign-in, must not end the session that sign-in began.
 */
async function endSessions(db: ReadDb, userId: number, at: Date): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ ended_at: at })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('created_at', '<=', at)
    .execute()
}

/** A time column that only moves forward, so a redelivered older event leaves the newer time. */
const latest = (column: 'last_sign_in_at', at: Date) => sql<Date>`greatest(${sql.ref(column)}, ${at})`

/**
 * org_members, member_invites, user_sessions and password_resets from the user streams. Idempotent per
 * event: rows are inserted if absent, and every update sets values from the event (a stamp such as ended_at
 * is only set while still empty, and only on rows that existed at the event's time), so a redelivered event
 * changes nothing, even after later ones.
 */
export const peopleProjector: Projector = eachEvent({
  name: 'people',
  handlers: {
    async OrgMemberInvited(db, event) {
      const d = event.data
      await db
        .insertInto('org_members')
        .values({
          user_id: d.user_id,
          org_id: d.org_id,
          email: d.email,
          role: d.role,
          status: 'invited',
          invited_at: occurredAt(event),
          joined_at: null,
          last_sign_in_at: null,
          locked_until: null,
        })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute()
      if (d.invite_token_hash !== null && d.invite_expires_at !== null) {
        await db
          .insertInto('member_invites')
          .values({ token_hash: d.invite_token_hash, user_id: d.user_id, org_id: d.org_id, expires_at: d.invite_expires_at })
          .onConflict((oc) => oc.column('token_hash').doNothing())
          .execute()
      }
    },
    async UserTotpEnrolled(db, event) {
      const d = event.data
      await db
        .updateTable('org_members')
        .set({ status: 'active', joined_at: occurredAt(event) })
        .where('user_id', '=', d.user_id)
        .where('status', '=', 'invited')
        .execute()
      await db.deleteFrom('member_invites').where('user_id', '=', d.user_id).execute()
    },
    async UserSignedIn(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await startSession(db, d, at)
      // A sign-in ends a lockout that had run out by then (none can succeed during one); a redelivered older
      // sign-in leaves a later lockout in place.
      await db
        .updateTable('org_members')
        .set({
          last_sign_in_at: latest('last_sign_in_at', at),
          locked_until: sql<Date | null>`case when locked_until <= ${at} then null else locked_until end`,
        })
        .where('user_id', '=', d.user_id)
        .execute()
    },
    async OrgMemberProvisionedBySso(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('org_members')
        .values({
          user_id: d.user_id,
          org_id: d.org_id,
          email: d.email,
          role: d.role,
          status: 'active',
          invited_at: at,
          joined_at: at,
          last_sign_in_at: null,
          locked_until: null,
        })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute()
    },
    async UserSignedInWithSso(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await startSession(db, d, at)
      // The provider proved the address: an invited member is in (and their invite link is used up).
      await db
        .updateTable('org_members')
        .set({ status: 'active', joined_at: at })
        .where('user_id', '=', d.user_id)
        .where('status', '=', 'invited')
        .execute()
      await db
        .updateTable('org_members')
        .set({ last_sign_in_at: latest('last_sign_in_at', at) })
        .where('user_id', '=', d.user_id)
        .execute()
      await db.deleteFrom('member_invites').where('user_id', '=', d.user_id).execute()
    },
    async UserLockedOut(db, event) {
      await db.updateTable('org_members').set({ locked_until: event.data.until }).where('user_id', '=', event.data.user_id).execute()
    },
    async UserSignedOut(db, event) {
      await db
        .updateTable('user_sessions')
        .set({ ended_at: occurredAt(event) })
        .where('session_hash', '=', event.data.session_hash)
        .where('ended_at', 'is', null)
        .execute()
    },
    async OrgMemberRoleChanged(db, event) {
      await db.updateTable('org_members').set({ role: event.data.role }).where('user_id', '=', event.data.user_id).execute()
    },
    async OrgMemberRemoved(db, event) {
      const userId = event.data.user_id
      const at = occurredAt(event)
      await db.deleteFrom('org_members').where('user_id', '=', userId).execute()
      await db.deleteFrom('member_invites').where('user_id', '=', userId).execute()
      await endSessions(db, userId, at)
      await db
        .updateTable('password_resets')
        .set({ invalidated_at: at })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('invalidated_at', 'is', null)
        .where('requested_at', '<=', at)
        .execute()
    },
    async PasswordResetRequested(db, event) {
      const d = event.data
      const org = event.metadata?.org_id
      await db
        .insertInto('password_resets')
        .values({
          token_hash: d.token_hash,
          user_id: d.user_id,
          org_id: typeof org === 'number' ? org : 0,
          requested_at: d.requested_at,
          expires_at: d.expires_at,
          used_at: null,
          invalidated_at: null,
        })
        .onConflict((oc) => oc.column('token_hash').doNothing())
        .execute()
    },
    async PasswordResetUsed(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('password_resets')
        .set({ used_at: at })
        .where('token_hash', '=', d.token_hash)
        .where('used_at', 'is', null)
        .execute()
      // Every other outstanding link of the member, and every session, ends with a reset.
      await db
        .updateTable('password_resets')
        .set({ invalidated_at: at })
        .where('user_id', '=', d.user_id)
        .where('token_hash', '!=', d.token_hash)
        .where('used_at', 'is', null)
        .where('invalidated_at', 'is', null)
        .where('requested_at', '<=', at)
        .execute()
      await endSessions(db, d.user_id, at)
    },
  },
})

/** A session begun at `at` (by password or SSO); applied twice, the same row. */
async function startSession(
  db: ReadDb,
  d: { session_hash: string; user_id: number; org_id: number; expires_at: string },
  at: Date,
): Promise<void> {
  await db
    .insertInto('user_sessions')
    .values({
      session_hash: d.session_hash,
      user_id: d.user_id,
      org_id: d.org_id,
      created_at: at,
      expires_at: d.expires_at,
      ended_at: null,
    })
    .onConflict((oc) => oc.column('session_hash').doNothing())
    .execute()
}
