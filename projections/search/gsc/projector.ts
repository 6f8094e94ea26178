import { sql } from 'kysely'
import { addDays, daysInRange } from '../../../domain/search/gsc/dates.js'
import { arrayLiteral } from '../../array-literal.js'
import { eachEvent } from '../../each-event.js'
import { executeWrite } from '../../live-write.js'
import { occurredAt, orgIdOf, type EventOf, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'

/**
 * gsc_properties and gsc_captures: one row per client's property (kept, marked removed, when it is removed)
 * and one per capture, its status and progress set from each event as absolute values, so a redelivered
 * event leaves the same row.
 */
const gscProjector: Projector = eachEvent({
  name: 'gsc',
  handlers: {
    async GscPropertySet(db, event) {
      const d = event.data
      const at = occurredAt(event)
      const values = {
        org_id: orgIdOf(event),
        property: d.property,
        property_type: d.property_type,
        auth_type: d.auth_type,
        service_account_email: d.service_account_email,
        cadence: d.cadence,
        status: 'connected' as const,
        updated_at: at,
        removed_at: null,
      }
      await db
        .insertInto('gsc_properties')
        .values({ client_id: d.client_id, ...values, connected_at: at })
        .onConflict((oc) =>
          oc.column('client_id').doUpdateSet({
            ...values,
            // Connected since the first set after a removal; a change of key or property keeps the date.
            connected_at: sql`case when ${sql.ref('gsc_properties.status')} = 'removed' then ${at} else ${sql.ref('gsc_properties.connected_at')} end`,
          }),
        )
        .execute()
    },
    async GscPropertyRemoved(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('gsc_properties')
        .set({ status: 'removed', removed_at: at, updated_at: at })
        .where('client_id', '=', event.data.client_id)
        .execute()
    },
    async GscCaptureQueued(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('gsc_captures')
        .values({
          id: d.capture_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          property: d.property,
          start_date: d.start_date,
          end_date: d.end_date,
          trigger: d.trigger,
          status: 'queued',
          attempts: 0,
          row_count: 0,
          days_recorded: 0,
          error_code: null,
          error_message: null,
          queued_at: at,
          started_at: null,
          next_attempt_at: null,
          finished_at: null,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async GscCaptureStarted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('gsc_captures')
        .set({
          status: 'running',
          attempts: d.attempt,
          next_attempt_at: null,
          updated_at: at,
          // The first attempt's start; a retry keeps it.
          started_at: d.attempt === 1 ? at : sql`coalesce(started_at, ${at})`,
        })
        .where('id', '=', d.capture_id)
        .execute()
    },
    async GscRowsRecorded(db, event) {
      const d = event.data
      const capture = await db
        .selectFrom('gsc_captures')
        .select(sql<string>`start_date::text`.as('start'))
        .where('id', '=', d.capture_id)
        .executeTakeFirst()
      if (!capture) return
      const done = d.day_complete ? addDays(d.date, 1) : d.date
      await db
        .updateTable('gsc_captures')
        .set({
          row_count: d.first_row_no + d.rows.length,
          days_recorded: daysInRange(capture.start, done) - 1,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.capture_id)
        .execute()
    },
    async GscCaptureAttemptFailed(db, event) {
      const d = event.data
      await db
        .updateTable('gsc_captures')
        .set({
          status: 'retrying',
          attempts: d.attempt,
          error_code: d.error.code,
          error_message: d.error.message,
          next_attempt_at: d.retry_at,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.capture_id)
        .execute()
    },
    async GscCaptureCompleted(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('gsc_captures')
        .set({
          status: 'completed',
          row_count: d.row_count,
          days_recorded: d.days,
          error_code: null,
          error_message: null,
          next_attempt_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', d.capture_id)
        .execute()
    },
    async GscCaptureFailed(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .updateTable('gsc_captures')
        .set({
          status: 'failed',
          attempts: d.attempt,
          error_code: d.error.code,
          error_message: d.error.message,
          next_attempt_at: null,
          finished_at: at,
          updated_at: at,
        })
        .where('id', '=', d.capture_id)
        .execute()
    },
  },
})

/** One event's rows in one statement (up to 5,000), each column an array parameter; rows already there (a redelivery) are skipped. */
async function insertRows(db: ReadDb, event: EventOf<'GscRowsRecorded'>): Promise<void> {
  const d = event.data
  if (d.rows.length === 0) return
  const n = d.rows.length
  const column = (values: readonly unknown[], type: string) => sql`${arrayLiteral(values)}::${sql.raw(type)}[]`
  await executeWrite(
    db,
    db
      .insertInto('gsc_capture_rows')
      .columns(['capture_id', 'row_no', 'client_id', 'org_id', 'date', 'query', 'page', 'clicks', 'impressions', 'ctr', 'position'])
      .expression(
        sql`select * from unnest(${sql.join([
          column(new Array(n).fill(d.capture_id), 'bigint'),
          column(
            d.rows.map((_, i) => d.first_row_no + i),
            'integer',
          ),
          column(new Array(n).fill(d.client_id), 'bigint'),
          column(new Array(n).fill(orgIdOf(event)), 'bigint'),
          column(new Array(n).fill(d.date), 'date'),
          column(
            d.rows.map((r) => r.query),
            'text',
          ),
          column(
            d.rows.map((r) => r.page),
            'text',
          ),
          column(
            d.rows.map((r) => r.clicks),
            'integer',
          ),
          column(
            d.rows.map((r) => r.impressions),
            'integer',
          ),
          column(
            d.rows.map((r) => r.ctr),
            'float8',
          ),
          column(
            d.rows.map((r) => r.position),
            'float8',
          ),
        ])})`,
      )
      .onConflict((oc) => oc.columns(['capture_id', 'row_no']).doNothing()),
  )
}

/** gsc_capture_rows: the captured rows, insert-only. It reads and writes no other table, so a rebuild runs it beside the others. */
const gscRowsProjector: Projector = eachEvent({
  name: 'gsc-rows',
  standalone: true,
  handlers: { GscRowsRecorded: insertRows },
})

/** The Search Console projectors. */
export const gscProjectors: readonly Projector[] = [gscProjector, gscRowsProjector]
