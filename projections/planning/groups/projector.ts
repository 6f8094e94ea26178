import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * client_groups and client_group_members, as the groups' events say. Each handler writes absolute values
 * (a redelivered event leaves the same rows): a created group is inserted once, a rename or delete sets
 * the row's columns, a member joins by upsert and leaves by delete.
 */
const clientGroupsProjector: Projector = eachEvent({
  name: 'planning_groups',
  handlers: {
    async ClientGroupCreated(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('client_groups')
        .values({
          id: d.group_id,
          org_id: d.org_id,
          name: d.name,
          description: d.description,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async ClientGroupRenamed(db, event) {
      await db
        .updateTable('client_groups')
        .set({ name: event.data.name, updated_at: occurredAt(event) })
        .where('id', '=', event.data.group_id)
        .execute()
    },
    async ClientGroupDeleted(db, event) {
      const at = occurredAt(event)
      await db.updateTable('client_groups').set({ deleted_at: at, updated_at: at }).where('id', '=', event.data.group_id).execute()
    },
    async ClientAddedToGroup(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('client_group_members')
        .values({ group_id: d.group_id, client_id: d.client_id, org_id: orgIdOf(event), added_at: at })
        .onConflict((oc) => oc.columns(['group_id', 'client_id']).doUpdateSet({ added_at: at }))
        .execute()
    },
    async ClientRemovedFromGroup(db, event) {
      await db
        .deleteFrom('client_group_members')
        .where('group_id', '=', event.data.group_id)
        .where('client_id', '=', event.data.client_id)
        .execute()
    },
  },
})

/** The client groups sub-area's projectors. */
export const clientGroupsProjectors: readonly Projector[] = [clientGroupsProjector]
