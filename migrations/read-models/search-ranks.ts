import type { Kysely } from 'kysely'

/** The ranks read models (projections/search/ranks). */
export async function createRanksTables(_db: Kysely<any>, _schema: string): Promise<void> {}
