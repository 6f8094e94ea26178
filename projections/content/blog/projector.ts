import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * blog_topics and blog_schedules, as the blog events say: an added topic is inserted once (a redelivery finds
 * its row), updates and moves set the values the event carries, a deleted topic stays marked, a schedule is
 * upserted whole.
 */
const blogProjector: Projector = eachEvent({
  name: 'content_blog',
  handlers: {
    async BlogTopicAdded(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('blog_topics')
        .values({
          id: d.topic_id,
          org_id: orgIdOf(event),
          client_id: d.client_id,
          title: d.title,
          target_keyword: d.target_keyword,
          source: d.source,
          source_ref: d.source_ref,
          notes: d.notes,
          status: d.status,
          planned_date: d.planned_date,
          status_reason: '',
          deleted: false,
          created_at: at,
          updated_at: at,
          status_changed_at: at,
          approved_at: d.status === 'approved' ? at : null,
          published_at: null,
          rejected_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async BlogTopicUpdated(db, event) {
      const d = event.data
      await db
        .updateTable('blog_topics')
        .set({
          title: d.title,
          target_keyword: d.target_keyword,
          source_ref: d.source_ref,
          notes: d.notes,
          planned_date: d.planned_date,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.topic_id)
        .execute()
    },
    async BlogTopicStatusChanged(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('blog_topics')
        .set({
          status: d.to,
          planned_date: d.planned_date,
          status_reason: d.reason,
          updated_at: at,
          status_changed_at: at,
          ...(d.to === 'approved' ? { approved_at: at } : {}),
          ...(d.to === 'published' ? { published_at: at } : {}),
          ...(d.to === 'rejected' ? { rejected_at: at } : {}),
        })
        .where('id', '=', d.topic_id)
        .execute()
    },
    async BlogTopicDeleted(db, event) {
      await db
        .updateTable('blog_topics')
        .set({ deleted: true, updated_at: occurredAt(event) })
        .where('id', '=', event.data.topic_id)
        .execute()
    },
    async BlogScheduleSet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      const values = {
        posts_per_week: d.posts_per_week,
        days: d.days.join(','),
        time_of_day: d.time,
        timezone: d.timezone,
        active: d.active,
        start_date: d.start_date,
        updated_at: at,
      }
      await db
        .insertInto('blog_schedules')
        .values({ client_id: d.client_id, org_id: orgIdOf(event), created_at: at, ...values })
        .onConflict((oc) => oc.column('client_id').doUpdateSet(values))
        .execute()
    },
  },
})

/** The blog sub-area's projectors. */
export const blogProjectors: readonly Projector[] = [blogProjector]
