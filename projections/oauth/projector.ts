import { sql } from 'kysely'
import { occurredAt, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'

/**
 * oauth_clients, oauth_grants and oauth_access_tokens. Idempotent per event: rows are inserted if absent,
 * a grant's generation only moves forward, and a revocation keeps its first time and reason.
 */
export const oauthProjector: Projector = eachEvent({
  name: 'oauth',
  handlers: {
    async OAuthClientRegistered(db, event) {
      const d = event.data
      await db
        .insertInto('oauth_clients')
        .values({
          id: d.client_id,
          client_name: d.client_name,
          redirect_uris: d.redirect_uris,
          client_uri: d.client_uri,
          logo_uri: d.logo_uri,
          software_id: d.software_id,
          software_version: d.software_version,
          registered_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async OAuthGrantApproved(db, event) {
      const d = event.data
      await db
        .insertInto('oauth_grants')
        .values({
          id: d.grant_id,
          org_id: d.org_id,
          user_id: d.user_id,
          client_id: d.client_id,
          scopes: d.scopes.join(' '),
          resource: d.resource,
          created_at: occurredAt(event),
          last_issued_at: null,
          generation: 0,
          expires_at: d.code_expires_at,
          revoked_at: null,
          revoked_reason: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async OAuthCodeExchanged(db, event) {
      const d = event.data
      await db
        .insertInto('oauth_access_tokens')
        .values({ token_hash: d.access_token_hash, grant_id: d.grant_id, expires_at: d.access_expires_at })
        .onConflict((oc) => oc.column('token_hash').doNothing())
        .execute()
      await db
        .updateTable('oauth_grants')
        .set({ generation: 1, last_issued_at: occurredAt(event), expires_at: d.refresh_expires_at ?? d.access_expires_at })
        .where('id', '=', d.grant_id)
        .where('generation', '<', 1)
        .execute()
    },
    async OAuthTokensRefreshed(db, event) {
      const d = event.data
      await db
        .insertInto('oauth_access_tokens')
        .values({ token_hash: d.access_token_hash, grant_id: d.grant_id, expires_at: d.access_expires_at })
        .onConflict((oc) => oc.column('token_hash').doNothing())
        .execute()
      await db
        .updateTable('oauth_grants')
        .set({ generation: d.generation, last_issued_at: occurredAt(event), expires_at: d.refresh_expires_at })
        .where('id', '=', d.grant_id)
        .where('generation', '<', d.generation)
        .execute()
    },
    async OAuthGrantRevoked(db, event) {
      const d = event.data
      await db
        .updateTable('oauth_grants')
        .set({ revoked_at: sql`coalesce(revoked_at, ${occurredAt(event)})`, revoked_reason: sql`coalesce(revoked_reason, ${d.reason})` })
        .where('id', '=', d.grant_id)
        .execute()
      // A revoked grant's tokens are dead: bearer authentication also checks the grant, this keeps the table small.
      await db.deleteFrom('oauth_access_tokens').where('grant_id', '=', d.grant_id).execute()
    },
  },
})
