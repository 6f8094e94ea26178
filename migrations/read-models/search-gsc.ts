import type { Kysely } from 'kysely'

/** The gsc read models (projections/search/gsc). */
export async function createGscTables(_db: Kysely<any>, _schema: string): Promise<void> {}
