import { sql, type Kysely } from 'kysely'

/**
 * The website projects sub-area's read models (projections/publishing/projects): one row per project.
 * Every row carries its client_id, so a sandbox reset deletes the retired clients' rows.
 */
export async function createWebsiteProjectsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('website_projects')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      name text not null,
      kind text not null,
      status text not null,
      site_url text,
      staging_url text,
      library_client_id bigint,
      notes text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      status_changed_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('website_projects_client')} on ${t('website_projects')} (client_id, id)`.execute(db)
  await sql`create index ${sql.id('website_projects_org')} on ${t('website_projects')} (org_id, id)`.execute(db)
}
