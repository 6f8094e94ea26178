import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { ReadDb, ReadModels } from '../../tables.js'
import { elementsOf, entityName, isTrue, mentioned, scorecardOnce } from './report-json.js'

/**
 * Keeps the get_aeo_summary totals (aeo_summary_*, migrations/read-models/aeo-summary.ts) equal to what
 * aggregating the current aeo_captures rows would give. Every change of a capture row is bracketed:
 * `subtract` its rows as they are, change them, `add` them as they now are (an ingest only adds, and only
 * when the row was really inserted). Both read the rows through report-json.ts, the same expressions the
 * report queries use. A replayed event subtracts and adds the same values, so the handlers stay idempotent;
 * rows that reach zero are deleted, so the tables hold exactly the groups that have captures.
 */

/** The captures a change touches: some captures by id (ingests, a re-analysis), or a client's captures of some questions (a merge). */
export type CaptureSelection =
  | { readonly captureIds: readonly number[] }
  | { readonly clientId: number; readonly queryIds: readonly number[] }

type Captures = SelectQueryBuilder<ReadModels & { c: ReadModels['aeo_captures'] }, 'c', object>

function selected<Q extends Captures>(query: Q, selection: CaptureSelection): Q {
  if ('captureIds' in selection) return query.where(sql<SqlBool>`c.id = any(${[...selection.captureIds]}::bigint[])`) as Q
  return query.where('c.client_id', '=', selection.clientId).where('c.query_id', 'in', [...selection.queryIds]) as Q
}

async function apply(db: ReadDb, sign: 1 | -1, selection: CaptureSelection): Promise<void> {
  if (('queryIds' in selection ? selection.queryIds : selection.captureIds).length === 0) return
  const captures = db.selectFrom('aeo_captures as c') as unknown as Captures
  const times = (count: ReturnType<typeof sql>) => sql<number>`${sql.lit(sign)} * ${count}::int`
  await db
    .insertInto('aeo_summary_counts')
    .columns(['client_id', 'month', 'query_id', 'engine', 'captures', 'present', 'named_first', 'mentioned'])
    .expression(
      selected(captures, selection)
        .innerJoin(scorecardOnce, (join) => join.onTrue())
        .select([
          'c.client_id',
          'c.month',
          'c.query_id',
          'c.engine',
          times(sql`count(*)`).as('captures'),
          times(sql`count(*) filter (where ${isTrue('present')})`).as('present'),
          times(sql`count(*) filter (where ${isTrue('named_first')})`).as('named_first'),
          times(sql`count(*) filter (where ${mentioned})`).as('mentioned'),
        ])
        .groupBy(['c.client_id', 'c.month', 'c.query_id', 'c.engine']),
    )
    .onConflict((oc) =>
      oc.columns(['client_id', 'month', 'query_id', 'engine']).doUpdateSet({
        captures: sql`aeo_summary_counts.captures + excluded.captures`,
        present: sql`aeo_summary_counts.present + excluded.present`,
        named_first: sql`aeo_summary_counts.named_first + excluded.named_first`,
        mentioned: sql`aeo_summary_counts.mentioned + excluded.mentioned`,
      }),
    )
    .execute()
  // The names each capture's entity_table gives, as competitorMentions read them: non-blank, grouped by lower().
  const named = selected(db.selectFrom(['aeo_captures as c', elementsOf('entity_table').as('e')]) as unknown as Captures, selection).where(
    sql<SqlBool>`coalesce(${entityName}, '') <> ''`,
  )
  await db
    .insertInto('aeo_summary_competitors')
    .columns(['client_id', 'month', 'name_key', 'answers'])
    .expression(
      named
        .select([
          'c.client_id',
          'c.month',
          sql<string>`lower(${entityName})`.as('name_key'),
          times(sql`count(distinct c.id)`).as('answers'),
        ])
        .groupBy(['c.client_id', 'c.month', sql`lower(${entityName})`]),
    )
    .onConflict((oc) =>
      oc.columns(['client_id', 'month', 'name_key']).doUpdateSet({ answers: sql`aeo_summary_competitors.answers + excluded.answers` }),
    )
    .execute()
  await db
    .insertInto('aeo_summary_spellings')
    .columns(['client_id', 'month', 'name_key', 'spelling', 'n'])
    .expression(
      named
        .select([
          'c.client_id',
          'c.month',
          sql<string>`lower(${entityName})`.as('name_key'),
          entityName.as('spelling'),
          times(sql`count(*)`).as('n'),
        ])
        .groupBy(['c.client_id', 'c.month', sql`lower(${entityName})`, entityName]),
    )
    .onConflict((oc) =>
      oc.columns(['client_id', 'month', 'name_key', 'spelling']).doUpdateSet({ n: sql`aeo_summary_spellings.n + excluded.n` }),
    )
    .execute()
}

/** Adds the selected captures, as their rows are now, to the totals. */
export const addToSummary = (db: ReadDb, selection: CaptureSelection) => apply(db, 1, selection)

/** Takes the selected captures, as their rows are now, out of the totals (call dropEmptyTotals after adding back). */
export const subtractFromSummary = (db: ReadDb, selection: CaptureSelection) => apply(db, -1, selection)

/** Deletes a client's totals that reached zero: a group with no captures left has no row, as if never counted. */
export async function dropEmptyTotals(db: ReadDb, clientId: number): Promise<void> {
  await db.deleteFrom('aeo_summary_counts').where('client_id', '=', clientId).where('captures', '=', 0).execute()
  await db.deleteFrom('aeo_summary_competitors').where('client_id', '=', clientId).where('answers', '=', 0).execute()
  await db.deleteFrom('aeo_summary_spellings').where('client_id', '=', clientId).where('n', '=', 0).execute()
}
