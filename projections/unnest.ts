import { sql, type RawBuilder } from 'kysely'
import { arrayLiteral } from './array-literal.js'

/** One column of rows passed as a single array parameter, with the PostgreSQL type of its elements. */
export type UnnestColumn = readonly [values: readonly unknown[], elementType: 'bigint' | 'text' | 'uuid' | 'timestamptz']

/**
 * The column as one array literal (arrayLiteral writes dates as ISO-8601 text, exact to the millisecond). Built here
 * rather than by pg, whose per-element conversion (two regular-expression replaces and a quote per element)
 * was about a tenth of a rebuild's Node CPU time.
 */
const asParameter = ([values]: UnnestColumn): string => arrayLiteral(values)

/**
 * `select * from unnest($1::bigint[], $2::text[], …)`: any number of rows in one statement with one
 * parameter per column (a multi-row VALUES list needs one per cell, and hits the 65,535 limit).
 */
export function unnestRows<Row>(columns: readonly UnnestColumn[]): RawBuilder<Row> {
  return sql<Row>`select * from unnest(${sql.join(columns.map((column) => sql`${asParameter(column)}::${sql.raw(column[1])}[]`))})`
}

/**
 * The same rows as a relation to join (`update … from`): `(select * from unnest(…)) as alias(names…)`, its
 * columns named in the order given.
 */
export function unnestRelation<Row, Alias extends string>(
  alias: Alias,
  columns: readonly (readonly [name: keyof Row & string, ...column: UnnestColumn])[],
) {
  const names = sql.join(columns.map(([name]) => sql.id(name)))
  return sql<Row>`(${unnestRows(columns.map(([, values, type]) => [values, type] as const))})`.as<Alias>(sql`${sql.id(alias)}(${names})`)
}
