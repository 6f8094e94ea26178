import type { Kysely } from 'kysely'

/** The blog sub-area's read models (projections/content/blog). */
export async function createBlogTables(_db: Kysely<any>, _schema: string): Promise<void> {}
