import { sql } from 'kysely'
import { intentContentHash } from '../../../commands/search/intent/content-hash.js'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'

/**
 * page_intents and page_intent_cache. The projector follows each page's current content itself (from the
 * page events, hashed as the processor hashes them), so a page whose content comes back to something
 * already classified (a rolled-back site edit) shows that classification again without a new record.
 * Every handler sets absolute values and then recomputes the page's row from its own tables (refresh), so
 * applying an event again, or an older one before the newer ones again, leaves the rows of one pass.
 */
export const intentProjector: Projector = eachEvent({
  name: 'search_intent',
  handlers: {
    async PageAdded(db, event) {
      const d = event.data
      await db
        .insertInto('page_intents')
        .values({
          page_id: d.page_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          content_sha256: intentContentHash(d.title, ''),
          snapshot_id: null,
          intent: null,
          source: null,
          classified_intent: null,
          classifier: null,
          confidence: null,
          classified_sha256: null,
          up_to_date: false,
          override_intent: null,
          override_note: null,
          override_at: null,
          updated_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('page_id').doNothing())
        .execute()
    },
    async PageUpdated(db, event) {
      const { page_id, title } = event.data
      if (title === undefined) return
      // Only a page without a snapshot is read by its title; once it has content, the snapshot's title counts.
      await db
        .updateTable('page_intents')
        .set({ content_sha256: intentContentHash(title, ''), updated_at: sql`greatest(updated_at, ${occurredAt(event)})` })
        .where('page_id', '=', page_id)
        .where('snapshot_id', 'is', null)
        .execute()
      await refresh(db, page_id)
    },
    async PageSnapshotRecorded(db, event) {
      const d = event.data
      // The newest snapshot is the one with the highest id, as get_latest_snapshot reads it.
      await db
        .updateTable('page_intents')
        .set({
          snapshot_id: d.snapshot_id,
          content_sha256: intentContentHash(d.title, d.content),
          updated_at: sql`greatest(updated_at, ${occurredAt(event)})`,
        })
        .where('page_id', '=', d.page_id)
        .where((eb) => eb.or([eb('snapshot_id', 'is', null), eb('snapshot_id', '<=', d.snapshot_id)]))
        .execute()
      await refresh(db, d.page_id)
    },
    async PageIntentClassified(db, event) {
      const d = event.data
      const row = {
        client_id: d.client_id,
        org_id: orgIdOf(event),
        snapshot_id: d.snapshot_id,
        intent: d.intent,
        confidence: d.confidence,
        signals: JSON.stringify(d.signals),
        classifier: d.classifier,
        model: d.model,
        fallback_reason: d.fallback_reason,
        request_id: d.request_id,
        revision: Number(event.revision),
        classified_at: occurredAt(event),
      }
      await db
        .insertInto('page_intent_cache')
        .values({ page_id: d.page_id, content_sha256: d.content_sha256, ...row })
        .onConflict((oc) => oc.columns(['page_id', 'content_sha256']).doUpdateSet(row))
        .execute()
      await refresh(db, d.page_id, occurredAt(event))
    },
    async PageIntentOverridden(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('page_intents')
        .set({ override_intent: d.intent, override_note: d.note, override_at: at, updated_at: sql`greatest(updated_at, ${at})` })
        .where('page_id', '=', d.page_id)
        .execute()
      await refresh(db, d.page_id)
    },
    async PageIntentOverrideCleared(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('page_intents')
        .set({ override_intent: null, override_note: null, override_at: null, updated_at: sql`greatest(updated_at, ${at})` })
        .where('page_id', '=', event.data.page_id)
        .execute()
      await refresh(db, event.data.page_id)
    },
  },
})

/**
 * The page's row from its current content, the cache and the override: the classification of the current
 * content, else the newest of an earlier content (until the new one is classified), and the override above
 * both. `at`: a classification's time (the row's updated_at moves to it).
 */
async function refresh(db: ReadDb, pageId: number, at?: Date): Promise<void> {
  const page = await db
    .selectFrom('page_intents')
    .select(['content_sha256', 'override_intent'])
    .where('page_id', '=', pageId)
    .executeTakeFirst()
  if (!page) return
  const cached = db
    .selectFrom('page_intent_cache')
    .select(['content_sha256', 'intent', 'classifier', 'confidence'])
    .where('page_id', '=', pageId)
  const classification =
    (await cached.where('content_sha256', '=', page.content_sha256).executeTakeFirst()) ??
    (await cached.orderBy('revision', 'desc').limit(1).executeTakeFirst())
  await db
    .updateTable('page_intents')
    .set({
      intent: page.override_intent ?? classification?.intent ?? null,
      source: page.override_intent !== null ? 'override' : (classification?.classifier ?? null),
      classified_intent: classification?.intent ?? null,
      classifier: classification?.classifier ?? null,
      confidence: classification?.confidence ?? null,
      classified_sha256: classification?.content_sha256 ?? null,
      up_to_date: classification?.content_sha256 === page.content_sha256,
      ...(at ? { updated_at: sql`greatest(updated_at, ${at})` } : {}),
    })
    .where('page_id', '=', pageId)
    .execute()
}

export const intentProjectors: readonly Projector[] = [intentProjector]
