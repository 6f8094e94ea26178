import { sql, type Kysely } from 'kysely'
import type { ReadDb } from '../../projections/tables.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * The usage report behind get_org_usage: the per-day, per-caller, per-method counters that the rate-limit
 * hook bumps (read-api/platform/rate-limit.ts, table api_usage_daily), summed for one organization over its
 * last `days` UTC days, today included.
 */
export interface UsageRow {
  readonly day: string
  /** api_key today; other credential kinds (OAuth tokens) are metered the same way. */
  readonly actor_kind: string
  /** The API key's id for actor_kind api_key, else null. */
  readonly key_id: number | null
  readonly method: string
  readonly calls: number
}

export interface UsageReport {
  /** The organization reported; null: platform (partner) keys, which belong to none. */
  readonly org_id: number | null
  readonly days: number
  /** First and last UTC day of the period (YYYY-MM-DD). */
  readonly from: string
  readonly to: string
  readonly total_calls: number
  /** Every day of the period, oldest first, with zero for a day without calls. */
  readonly by_day: { day: string; calls: number }[]
  /** Busiest first. key_name is null for a key the read models do not know (or another credential kind). */
  readonly by_key: { actor_kind: string; key_id: number | null; key_name: string | null; calls: number }[]
  /** Busiest first. */
  readonly by_method: { method: string; calls: number }[]
  /** Newest day first, then by key and method. */
  readonly rows: UsageRow[]
}

const DAY_MS = 86_400_000
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** Never throws for an organization without usage: that is a report of zeros. */
export async function usageReport(
  db: Kysely<WorkTables>,
  read: ReadDb,
  input: { orgId: number | null; days: number; now: number },
): Promise<UsageReport> {
  const to = utcDay(input.now)
  const from = utcDay(input.now - (input.days - 1) * DAY_MS)
  const stored = await sql<{ day: string; actor_kind: string; actor_id: string; method: string; calls: number }>`
    select to_char(day, 'YYYY-MM-DD') as day, actor_kind, actor_id, method, calls::int8 as calls
    from api_usage_daily
    where org_id is not distinct from ${input.orgId}::bigint and day between ${from}::date and ${to}::date
    order by day desc, actor_kind, actor_id, method`.execute(db)

  const rows: UsageRow[] = stored.rows.map((r) => ({
    day: r.day,
    actor_kind: r.actor_kind,
    key_id: r.actor_kind === 'api_key' ? Number(r.actor_id) : null,
    method: r.method,
    calls: Number(r.calls),
  }))
  const keyIds = [...new Set(rows.flatMap((r) => (r.key_id === null ? [] : [r.key_id])))]
  const names = new Map<number, string>()
  if (keyIds.length > 0) {
    const keys = await read.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', keyIds).execute()
    for (const key of keys) names.set(key.id, key.name)
  }

  const perDay = new Map<string, number>()
  const perKey = new Map<string, { actor_kind: string; key_id: number | null; key_name: string | null; calls: number }>()
  const perMethod = new Map<string, number>()
  for (const row of rows) {
    perDay.set(row.day, (perDay.get(row.day) ?? 0) + row.calls)
    const who = `${row.actor_kind}:${row.key_id}`
    const key = perKey.get(who) ?? {
      actor_kind: row.actor_kind,
      key_id: row.key_id,
      key_name: row.key_id === null ? null : (names.get(row.key_id) ?? null),
      calls: 0,
    }
    key.calls += row.calls
    perKey.set(who, key)
    perMethod.set(row.method, (perMethod.get(row.method) ?? 0) + row.calls)
  }
  const byDay: { day: string; calls: number }[] = []
  for (let i = input.days - 1; i >= 0; i--) {
    const day = utcDay(input.now - i * DAY_MS)
    byDay.push({ day, calls: perDay.get(day) ?? 0 })
  }
  // Ties by name in code-unit order, so the order never depends on the server's locale.
  const busiest = <T extends { calls: number }>(list: T[], name: (t: T) => string) =>
    list.sort((a, b) => b.calls - a.calls || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0))
  return {
    org_id: input.orgId,
    days: input.days,
    from,
    to,
    total_calls: rows.reduce((sum, r) => sum + r.calls, 0),
    by_day: byDay,
    by_key: busiest([...perKey.values()], (k) => `${k.actor_kind}:${String(k.key_id).padStart(20, '0')}`),
    by_method: busiest(
      [...perMethod].map(([method, calls]) => ({ method, calls })),
      (m) => m.method,
    ),
    rows,
  }
}
