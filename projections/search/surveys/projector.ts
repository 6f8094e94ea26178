import { sql } from 'kysely'
import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * surveys: one row per survey. Answers merge by question id (the event holds only the ones that changed, and
 * merging the same answers again gives the same object); completion keeps the first time it was recorded.
 */
export const surveysProjector: Projector = eachEvent({
  name: 'surveys',
  handlers: {
    async SurveyStarted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('surveys')
        .values({
          id: d.survey_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          questionnaire: d.questionnaire,
          status: 'in_progress',
          answers: '{}',
          created_at: at,
          updated_at: at,
          completed_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async SurveyAnswersRecorded(db, event) {
      await db
        .updateTable('surveys')
        .set({
          answers: sql<string>`answers || ${JSON.stringify(event.data.answers)}::jsonb`,
          updated_at: occurredAt(event),
        })
        .where('id', '=', event.data.survey_id)
        .execute()
    },
    async SurveyCompleted(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('surveys')
        .set({ status: 'completed', completed_at: sql<Date>`coalesce(completed_at, ${at})`, updated_at: at })
        .where('id', '=', event.data.survey_id)
        .execute()
    },
  },
})

/** The surveys projectors. */
export const surveysProjectors: readonly Projector[] = [surveysProjector]
