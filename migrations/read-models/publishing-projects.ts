import type { Kysely } from 'kysely'

/** The website projects, sitemap pages and generated content sub-area's read models (projections/publishing/projects). */
export async function createWebsiteProjectsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
