import { sql, type Kysely } from 'kysely'

/**
 * Rate-limit windows and usage counters: state every API process must share (several processes behind a
 * load balancer count against one limit), so it lives here rather than in process memory. Both are plain
 * counters bumped by one upsert per request (read-api/platform/rate-limit.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per bucket (an API key, or a client address for unauthenticated calls) and minute.
  await sql`
    create table rate_limit_windows (
      bucket text not null,
      window_minute bigint not null,
      count integer not null,
      primary key (bucket, window_minute)
    )`.execute(db)
  // Old windows are deleted by minute, so that delete finds them without scanning the live ones.
  await sql`create index rate_limit_windows_minute on rate_limit_windows (window_minute)`.execute(db)
  // One row per UTC day, caller and method: what get_org_usage reports.
  await sql`
    create table api_usage_daily (
      day date not null,
      actor_kind text not null,
      actor_id text not null,
      org_id bigint,
      method text not null,
      calls bigint not null,
      primary key (day, actor_kind, actor_id, method)
    )`.execute(db)
  await sql`create index api_usage_daily_org on api_usage_daily (org_id, day)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table api_usage_daily`.execute(db)
  await sql`drop table rate_limit_windows`.execute(db)
}
