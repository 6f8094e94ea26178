import type { Projector } from '../projector.js'
import { occurredAt } from '../projector.js'

export const organizationsProjector: Projector = {
  name: 'organizations',
  handlers: {
    async OrganizationCreated(db, event) {
      const at = occurredAt(event)
      await db
        .insertInto('organizations')
        .values({ id: event.data.org_id, name: event.data.name, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
  },
}
