import type { Compilable } from 'kysely'
import { namedStatement } from '../commands/named-statements.js'
import { LIVE_SCHEMA } from '../migrations/read-models/index.js'
import type { ReadDb } from './tables.js'

/** How a statement on the live read models names its tables (kysely's withSchema quotes the schema). */
const LIVE_TABLE = `"${LIVE_SCHEMA}".`

/**
 * Runs a projector's batch write, as a named statement (commands/named-statements.ts) when it writes the live
 * read models: the runner sends the same few texts on every batch (one per table, every value an unnest
 * array parameter), and PostgreSQL parsed and planned each one for about as long as it ran it. A rebuild's
 * writes name its own, short-lived schema and run unnamed as before, so no prepared statement is left
 * behind for a schema that is gone; after the rebuild's swap the live texts resolve to the swapped-in
 * tables (a schema rename invalidates cached plans). Only for statements whose text is fixed.
 */
export async function executeWrite(db: ReadDb, query: Compilable): Promise<void> {
  const compiled = query.compile()
  if (compiled.sql.includes(LIVE_TABLE)) namedStatement(compiled.sql)
  await db.executeQuery(compiled)
}
