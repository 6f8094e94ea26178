import { sql, type Kysely } from 'kysely'

/**
 * The action items sub-area's read models (projections/planning/action-items): one row per item (deleted ones
 * kept, marked, so an id answers 404 the same way after a delete and the history stays), and one row per
 * closed client-month (the cycle's close: what was carried into which month).
 */
export async function createActionItemsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('action_items')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      month text,
      action_type text not null,
      page_url text not null,
      description text not null,
      status text not null,
      tier text not null,
      hours double precision not null,
      impact double precision,
      source_kind text not null,
      source_id bigint,
      source_by text not null,
      source_key text,
      carried_from_item_id bigint,
      carried_to_item_id bigint,
      job_id bigint,
      site_edit_id bigint,
      note text not null default '',
      completed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('action_items_client_month')} on ${t('action_items')} (client_id, month)`.execute(db)
  await sql`create index ${sql.id('action_items_org_month')} on ${t('action_items')} (org_id, month)`.execute(db)
  await sql`
    create table ${t('action_item_months_closed')} (
      client_id bigint not null,
      month text not null,
      org_id bigint not null,
      next_month text not null,
      carried_count integer not null,
      budget_hours double precision,
      done_hours double precision not null,
      closed_at timestamptz not null,
      primary key (client_id, month)
    )`.execute(db)
  await sql`create index ${sql.id('action_item_months_closed_org')} on ${t('action_item_months_closed')} (org_id, month)`.execute(db)
}
