import { sql } from 'kysely'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'

/**
 * The keyword's primary page is `pageId` and no other: absolute values, so applying it again writes the same
 * rows; updated_at moves only on the rows whose flag changes.
 */
async function setPrimary(db: ReadDb, keywordId: number, pageId: number, at: Date): Promise<void> {
  await db
    .updateTable('keyword_pages')
    .set({
      is_primary: sql<boolean>`page_id = ${pageId}`,
      updated_at: sql<Date>`case when is_primary = (page_id = ${pageId}) then updated_at else ${at} end`,
    })
    .where('keyword_id', '=', keywordId)
    .execute()
}

/** keyword_pages: one row per link; a dissociated link's row is deleted (the log keeps its history). */
export const keywordPagesProjector: Projector = eachEvent({
  name: 'keyword_pages',
  handlers: {
    async KeywordPageAssociated(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('keyword_pages')
        .values({
          keyword_id: d.keyword_id,
          page_id: d.page_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          is_primary: d.primary,
          associated_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.columns(['keyword_id', 'page_id']).doNothing())
        .execute()
      if (d.primary) await setPrimary(db, d.keyword_id, d.page_id, at)
    },
    async KeywordPrimaryPageSet(db, event) {
      await setPrimary(db, event.data.keyword_id, event.data.page_id, occurredAt(event))
    },
    async KeywordPageDissociated(db, event) {
      await db
        .deleteFrom('keyword_pages')
        .where('keyword_id', '=', event.data.keyword_id)
        .where('page_id', '=', event.data.page_id)
        .execute()
    },
  },
})

/** The associations projectors. */
export const associationsProjectors: readonly Projector[] = [keywordPagesProjector]
