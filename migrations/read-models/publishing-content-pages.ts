import type { Kysely } from 'kysely'

/** The content pages and Elementor pages sub-area's read models (projections/publishing/content-pages). */
export async function createContentPagesTables(_db: Kysely<any>, _schema: string): Promise<void> {}
