import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * reference_docs, as the reference document events say: an added document is inserted once (a redelivery
 * finds its row), an update sets the values the event carries, a delete marks the row.
 */
const referenceDocsProjector: Projector = eachEvent({
  name: 'content_reference_docs',
  handlers: {
    async ReferenceDocAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('reference_docs')
        .values({
          id: d.doc_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          kind: d.kind,
          title: d.title,
          body: d.body,
          version: d.version,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async ReferenceDocUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('reference_docs')
        .set({ client_id: d.client_id, kind: d.kind, title: d.title, body: d.body, version: d.version, updated_at: occurredAt(event) })
        .where('id', '=', d.doc_id)
        .execute()
    },
    async ReferenceDocDeleted(db, event) {
      const at = occurredAt(event)
      await db.updateTable('reference_docs').set({ deleted_at: at, updated_at: at }).where('id', '=', event.data.doc_id).execute()
    },
  },
})

/** The reference-docs sub-area's projectors. */
export const referenceDocsProjectors: readonly Projector[] = [referenceDocsProjector]
