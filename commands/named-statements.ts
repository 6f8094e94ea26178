import { createHash } from 'node:crypto'
import pg from 'pg'

/**
 * Named (prepared) statements for the few statement texts that every request runs. PostgreSQL parses and
 * plans an unnamed statement each time it is sent, which for the hot per-request statements (the API key
 * lookup and count, get_client's read) cost about as much server CPU as running them. A text registered here
 * is sent as a named statement instead: each connection parses it once, and after a few executions
 * PostgreSQL reuses a generic plan.
 *
 * Registration is by exact text, so only statements whose text is fixed (every value a parameter) may be
 * registered: a text that varied per call would leave a new prepared statement behind on every connection.
 * A cached plan is re-planned by PostgreSQL when what it reads changes (the read-model swap of a rebuild
 * renames schemas, which invalidates every cached plan; the next execution resolves the names again), so a
 * named statement always reads what the same unnamed statement would. It must select named columns, not
 * `*`: a cached plan refuses to change its result's shape.
 */
const names = new Map<string, string>()

/** Registers a fixed statement text to be run as a named statement; returns the text. Never throws. */
export function namedStatement(text: string): string {
  if (!names.has(text)) names.set(text, `rr_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`)
  return text
}

/**
 * The pool's client (ops/postgres.ts passes it as the pool's `Client`): a plain-text query whose text was
 * registered with `namedStatement` runs as that named statement; anything else runs exactly as given. Kysely
 * and the pool's own `query` both end in `client.query(text, values)`, so every path to a registered text
 * benefits.
 */
export class NamedStatementClient extends pg.Client {}

const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown
// Assigned rather than declared as a method: pg's `query` is a set of overloads that no one signature matches.
NamedStatementClient.prototype.query = function namedQuery(this: pg.Client, ...args: unknown[]) {
  const [text, values, callback] = args
  const name = typeof text === 'string' ? names.get(text) : undefined
  // Only (text, values[, callback]) is rewritten; (text, callback) and config objects run as given.
  if (name === undefined || (values !== undefined && !Array.isArray(values))) return query.apply(this, args)
  return query.call(this, { name, text, values }, callback)
} as pg.Client['query']
