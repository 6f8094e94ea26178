import type { Kysely } from 'kysely'

/** The insights read models (projections/search/insights). */
export async function createInsightsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
