import type { Kysely } from 'kysely'

/** The intent read models (projections/search/intent). */
export async function createIntentTables(_db: Kysely<any>, _schema: string): Promise<void> {}
