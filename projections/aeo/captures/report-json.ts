import { sql, type SqlBool } from 'kysely'

/**
 * How the read side reads a capture's `report_json` (over `aeo_captures as c`), by contract:
 * scorecard.present, scorecard.named_first, scorecard.position, entity_table[].name,
 * source_table[].{domain, class, count}, defensively: a field of another type counts as absent, never as an
 * error, so an analysis version with a changed shape degrades a report instead of breaking it. The summary
 * totals (summary-totals.ts) and the report queries (../reports/queries.ts) both read through these, so they
 * cannot disagree on what a capture counts as.
 */

/*
 * report_json is large enough to be TOASTed (compressed, out of line), and PostgreSQL detoasts it again for
 * every expression that reads it: five reads per capture made captureCounts cost about 90 µs per capture row
 * (EXPLAIN ANALYZE, 60 captures: 5.6 ms of 5.7). So each query reads report_json once per row, in a lateral
 * subquery (`offset 0` keeps the planner from inlining it back into every expression), and the expressions
 * read the small part that subquery took out.
 */

/** `r.sc`: the capture's scorecard, taken out of report_json once per row. */
export const scorecardOnce = sql<{ sc: unknown }>`lateral (select c.report_json -> 'scorecard' as sc offset 0)`.as('r')

export const isTrue = (key: string) => sql<SqlBool>`(r.sc -> ${key}::text) = 'true'::jsonb`

/** The answer names the client: it has a position among named businesses, or is named first. */
export const mentioned = sql<SqlBool>`(jsonb_typeof(r.sc -> 'position') = 'number' or (r.sc -> 'named_first') = 'true'::jsonb)`

/**
 * The elements of a report_json array (an empty set when it is missing or not an array), with report_json
 * read once per capture row (the array taken out in a lateral subquery, see above).
 */
export const elementsOf = (key: string) =>
  sql`lateral (select c.report_json -> ${key} as a offset 0) as once_${sql.raw(key)} cross join lateral jsonb_array_elements(case when jsonb_typeof(once_${sql.raw(key)}.a) = 'array' then once_${sql.raw(key)}.a else '[]'::jsonb end)`

/** The business an entity_table element (`e`) names: a string, or an object's name; blank counts as none. */
export const entityName = sql<string>`btrim(case jsonb_typeof(e.value) when 'string' then e.value #>> '{}' when 'object' then e.value ->> 'name' end)`
