import { sql, type Kysely } from 'kysely'

/**
 * The templates sub-area's read models (projections/publishing/templates): the platform's section templates
 * (no organization, no client: a sandbox reset keeps them), each library client's template catalog (the
 * library client in `client_id`) and the projects' template pages (the project's client in `client_id`).
 */
export async function createTemplatesTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('section_templates')} (
      id bigint primary key,
      category text not null,
      name text not null,
      description text not null,
      fields jsonb not null,
      elementor_json text not null,
      version integer not null,
      status text not null,
      built_in boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      retired_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('section_templates_category')} on ${t('section_templates')} (category, name)`.execute(db)
  await sql`
    create table ${t('template_catalog_entries')} (
      client_id bigint not null,
      template_id bigint not null,
      org_id bigint not null,
      title text not null,
      role text not null,
      tags jsonb not null,
      thumbnail_url text,
      modified_gmt text,
      recorded_at timestamptz not null,
      primary key (client_id, template_id)
    )`.execute(db)
  await sql`
    create table ${t('template_pages')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      project_id bigint not null,
      sitemap_page_id bigint,
      title text not null,
      sections jsonb not null,
      images jsonb not null,
      status text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('template_pages_project')} on ${t('template_pages')} (project_id, id)`.execute(db)
  await sql`create index ${sql.id('template_pages_client')} on ${t('template_pages')} (client_id)`.execute(db)
}
