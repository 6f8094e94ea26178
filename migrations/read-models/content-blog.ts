import { sql, type Kysely } from 'kysely'

/**
 * The blog sub-area's read models (projections/content/blog): one row per blog topic (deleted ones kept,
 * marked) and one per client's publishing schedule.
 */
export async function createBlogTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('blog_topics')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      title text not null,
      target_keyword text not null,
      source text not null,
      source_ref text not null,
      notes text not null,
      status text not null,
      planned_date text,
      status_reason text not null,
      deleted boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      status_changed_at timestamptz not null,
      approved_at timestamptz,
      published_at timestamptz,
      rejected_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('blog_topics_client_status')} on ${t('blog_topics')} (client_id, status)`.execute(db)
  await sql`create index ${sql.id('blog_topics_org_planned')} on ${t('blog_topics')} (org_id, planned_date) where status = 'scheduled' and not deleted`.execute(
    db,
  )
  await sql`
    create table ${t('blog_schedules')} (
      client_id bigint primary key,
      org_id bigint not null,
      posts_per_week integer not null,
      days text not null,
      time_of_day text not null,
      timezone text not null,
      active boolean not null,
      start_date text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
}
