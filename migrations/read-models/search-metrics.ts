import type { Kysely } from 'kysely'

/** The metrics read models (projections/search/metrics). */
export async function createKeywordMetricsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
