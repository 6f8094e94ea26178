import type { Projector } from '../projector.js'
import { occurredAt } from '../projector.js'

export const apiKeysProjector: Projector = {
  name: 'api_keys',
  handlers: {
    async ApiKeyCreated(db, event) {
      const d = event.data
      await db
        .insertInto('api_keys')
        .values({
          id: d.key_id,
          org_id: d.org_id,
          name: d.name,
          notes: d.notes,
          scopes: d.scopes.join(','),
          key_hash: d.key_hash,
          key_hint: d.key_hint,
          created_by_user_id: d.created_by_user_id,
          created_at: occurredAt(event),
          revoked_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async ApiKeyRevoked(db, event) {
      await db
        .updateTable('api_keys')
        .set({ revoked_at: occurredAt(event) })
        .where('id', '=', event.data.key_id)
        .where('revoked_at', 'is', null)
        .execute()
    },
  },
}
