import type { Kysely } from 'kysely'

/** The rank-checks read models (projections/search/rank-checks). */
export async function createRankChecksTables(_db: Kysely<any>, _schema: string): Promise<void> {}
