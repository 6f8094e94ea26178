import type { Kysely } from 'kysely'

/** The changes sub-area's read models (projections/monitoring/changes). */
export async function createSiteChangesTables(_db: Kysely<any>, _schema: string): Promise<void> {}
