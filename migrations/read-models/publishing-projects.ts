import { sql, type Kysely } from 'kysely'

/**
 * The website projects sub-area's read models (projections/publishing/projects): one row per project, per
 * sitemap page (deleted ones kept, marked), per generated content version and per Elementor page. Every row
 * carries its client_id, so a sandbox reset deletes the retired clients' rows.
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
  await sql`
    create table ${t('sitemap_pages')} (
      id bigint primary key,
      project_id bigint not null,
      org_id bigint not null,
      client_id bigint not null,
      title text not null,
      slug text not null,
      parent_id bigint,
      page_type text not null,
      position integer not null,
      primary_keyword text,
      status text not null,
      wp_post_id bigint,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      status_changed_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('sitemap_pages_project')} on ${t('sitemap_pages')} (project_id, position, id)`.execute(db)
  await sql`create index ${sql.id('sitemap_pages_client')} on ${t('sitemap_pages')} (client_id)`.execute(db)
  await sql`
    create table ${t('generated_content')} (
      id bigint primary key,
      project_id bigint not null,
      sitemap_page_id bigint not null,
      org_id bigint not null,
      client_id bigint not null,
      kind text not null,
      version integer not null,
      is_current boolean not null,
      body text not null,
      writer text not null,
      created_at timestamptz not null,
      exported_at timestamptz,
      pushed_at timestamptz,
      wp_post_id bigint
    )`.execute(db)
  await sql`create index ${sql.id('generated_content_page')} on ${t('generated_content')} (sitemap_page_id, kind, version)`.execute(db)
  await sql`create index ${sql.id('generated_content_project')} on ${t('generated_content')} (project_id, id)`.execute(db)
  await sql`create index ${sql.id('generated_content_client')} on ${t('generated_content')} (client_id, id)`.execute(db)
  await sql`
    create table ${t('elementor_pages')} (
      project_id bigint not null,
      wp_post_id bigint not null,
      org_id bigint not null,
      client_id bigint not null,
      title text not null,
      slug text,
      status text,
      link text,
      modified_gmt text not null,
      elementor_data text not null,
      elementor_data_sha256 text not null,
      elementor_data_bytes integer not null,
      widget_counts jsonb not null,
      recorded_at timestamptz not null,
      primary key (project_id, wp_post_id)
    )`.execute(db)
  await sql`create index ${sql.id('elementor_pages_client')} on ${t('elementor_pages')} (client_id)`.execute(db)
}
