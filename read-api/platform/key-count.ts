import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { KeyRow } from '../auth/api-keys.js'
import type { ReadDb } from '../../projections/tables.js'

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

/** The read models' `api_keys` table, schema-qualified as the read handle names it (compiled once, not per request). */
export function apiKeysTable(read: ReadDb): RawBuilder<unknown> {
  const compiled = read.selectFrom('api_keys').select('id').compile().sql
  const table = /\bfrom\s+(.+)$/i.exec(compiled)?.[1]
  if (!table) throw new Error(`cannot find the api_keys table in ${compiled}`)
  return sql.raw(table)
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
 */
export async function lookUpAndCount(
  db: Kysely<any>,
  keysTable: RawBuilder<unknown>,
  input: { keyHash: string; minute: number; defaultLimit: number; retentionDays: number },
  hits: readonly KeyHit[],
): Promise<KeyCount> {
  const n = hits.length
  const metered = hits.flatMap((h, i) => (h.method !== null ? [{ day: h.day, method: h.method, ord: i + 1 }] : []))
  const sweep = hits.find((h) => h.sweep !== null)?.sweep ?? null
  const result = await sql<KeyRow & { count: number | null }>`
    with async_commit as (select set_config('synchronous_commit', 'off', true)),
    key as (
      select id, org_id, scopes, key_hash, rate_limit_per_minute from ${keysTable}
      where key_hash = ${input.keyHash} and revoked_at is null
    ),
    hit as (
      insert into rate_limit_windows (bucket, window_minute, count)
      select 'api_key:' || key.id, ${input.minute}::bigint, ${n}::int from key
      on conflict (bucket, window_minute) do update set count = rate_limit_windows.count + excluded.count
      returning count
    ),
    calls as (
      select * from unnest(${metered.map((m) => m.day)}::date[], ${metered.map((m) => m.method)}::text[], ${metered.map((m) => m.ord)}::int[])
        as c(day, method, ord)
    ),
    metered as (
      insert into api_usage_daily (day, actor_kind, actor_id, org_id, method, calls)
      select c.day, 'api_key', key.id::text, min(key.org_id), c.method, count(*)
      from calls c, hit, key
      where hit.count - ${n}::int + c.ord <= coalesce(key.rate_limit_per_minute, ${input.defaultLimit}::int)
      group by c.day, key.id, c.method
      on conflict (day, actor_kind, actor_id, method) do update set calls = api_usage_daily.calls + excluded.calls
    ),
    swept_windows as (
      delete from rate_limit_windows where ${sweep !== null} and window_minute < ${input.minute - 1}::bigint
    ),
    swept_usage as (
      delete from api_usage_daily where ${sweep !== null} and day < ${sweep?.day ?? null}::date - ${input.retentionDays}::int
    )
    select key.*, hit.count from async_commit left join key on true left join hit on true`.execute(db)
  const found = result.rows[0]
  if (!found || found.id === null || found.count === null) return { row: undefined, counts: [] }
  const { count, ...row } = found
  const after = Number(count)
  return { row: { ...row, id: Number(row.id), org_id: row.org_id === null ? null : Number(row.org_id) }, counts: hits.map((_, i) => after - n + i + 1) }
}
