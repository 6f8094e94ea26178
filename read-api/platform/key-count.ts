import { CompiledQuery, type Kysely } from 'kysely'
import { namedStatement } from '../../commands/named-statements.js'
import type { KeyRow } from '../auth/api-keys.js'
import type { ReadDb } from '../../projections/tables.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/** One request of an API key to look up and count: what to meter it as if it is let through. */
export interface KeyHit {
  readonly day: string
  /** null: not metered here (the MCP endpoint meters its messages itself). */
  readonly method: string | null
  /** Set: sweep old windows and usage rows (the first request this process sees in a new minute). */
  readonly sweep: { day: string } | null
}

export interface KeyCount {
  /** The key, or undefined when it is unknown or revoked: then nothing was counted or metered. */
  readonly row: KeyRow | undefined
  /** Each request's count in its key's window, itself included (as `count` in ./rate-limit.ts); empty without a row. */
  readonly counts: readonly number[]
}

/**
 * The statement of `lookUpAndCount` for the read models' `api_keys` table, schema-qualified as the read handle
 * names it: built once per read handle and run as a named statement (commands/named-statements.ts), so
 * PostgreSQL parses and plans it once per connection instead of on every call. Every value is a parameter:
 * $1 the key's hash, $2 the window's minute, $3 the number of requests, $4-$6 the metered calls (day,
 * method, 1-based order), $7 the default limit, $8 whether to sweep, $9 the sweeping day, $10 the usage
 * retention in days.
 */
const statements = new WeakMap<ReadDb, string>()
export function keyCountStatement(read: ReadDb): string {
  let text = statements.get(read)
  if (text === undefined) {
    const compiled = read.selectFrom('api_keys').select('id').compile().sql
    const table = /\bfrom\s+(.+)$/i.exec(compiled)?.[1]
    if (!table) throw new Error(`cannot find the api_keys table in ${compiled}`)
    text = namedStatement(`
    with async_commit as (select set_config('synchronous_commit', 'off', true)),
    key as (
      select id, org_id, scopes, key_hash, rate_limit_per_minute from ${table}
      where key_hash = $1::text and revoked_at is null
    ),
    hit as (
      insert into rate_limit_windows (bucket, window_minute, count)
      select 'api_key:' || key.id, $2::bigint, $3::int from key
      on conflict (bucket, window_minute) do update set count = rate_limit_windows.count + excluded.count
      returning count
    ),
    calls as (
      select * from unnest($4::date[], $5::text[], $6::int[]) as c(day, method, ord)
    ),
    metered as (
      insert into api_usage_daily (day, actor_kind, actor_id, org_id, method, calls)
      select c.day, 'api_key', key.id::text, min(key.org_id), c.method, count(*)
      from calls c, hit, key
      where hit.count - $3::int + c.ord <= coalesce(key.rate_limit_per_minute, $7::int)
      group by c.day, key.id, c.method
      on conflict (day, actor_kind, actor_id, method) do update set calls = api_usage_daily.calls + excluded.calls
    ),
    swept_windows as (
      delete from rate_limit_windows where $8::boolean and window_minute < $2::bigint - 1
    ),
    swept_usage as (
      delete from api_usage_daily where $8::boolean and day < $9::date - $10::int
    )
    select key.id, key.org_id, key.scopes, key.key_hash, key.rate_limit_per_minute, hit.count
    from async_commit left join key on true left join hit on true`)
    statements.set(read, text)
  }
  return text
}

/**
 * The API key lookup and the rate-limit count of an API-key request in one statement (one round trip instead
 * of two in a row on every request). The counter row is only touched when the key is found unrevoked in the
 * same statement: an unknown or revoked key counts nothing here (the caller then counts the request by client
 * address, as before), and a revoked key is refused by the first statement that starts after the revocation
 * is projected, as with the separate lookup. Requests of one key in one minute are gathered into one call
 * (read-api/platform/coalesce.ts); counts are given out as by `count` in ./rate-limit.ts (the i-th of n gets
 * `count after - n + i`, metered only within the key's limit), and the window is the same shared row
 * `api_key:<id>` that every API process updates. Commits asynchronously, for the reason given there.
 * `statement` is `keyCountStatement(read)`.
 */
export async function lookUpAndCount(
  db: Kysely<WorkTables>,
  statement: string,
  input: { keyHash: string; minute: number; defaultLimit: number; retentionDays: number },
  hits: readonly KeyHit[],
): Promise<KeyCount> {
  const n = hits.length
  const metered = hits.flatMap((h, i) => (h.method !== null ? [{ day: h.day, method: h.method, ord: i + 1 }] : []))
  const sweep = hits.find((h) => h.sweep !== null)?.sweep ?? null
  const result = await db.executeQuery(
    CompiledQuery.raw(statement, [
      input.keyHash,
      input.minute,
      n,
      metered.map((m) => m.day),
      metered.map((m) => m.method),
      metered.map((m) => m.ord),
      input.defaultLimit,
      sweep !== null,
      sweep?.day ?? null,
      input.retentionDays,
    ]) as CompiledQuery<KeyRow & { count: number | null }>,
  )
  const found = result.rows[0]
  if (!found || found.id === null || found.count === null) return { row: undefined, counts: [] }
  const { count, ...row } = found
  const after = Number(count)
  return {
    row: { ...row, id: Number(row.id), org_id: row.org_id === null ? null : Number(row.org_id) },
    counts: hits.map((_, i) => after - n + i + 1),
  }
}
