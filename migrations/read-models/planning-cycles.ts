import type { Kysely } from 'kysely'

/** The hour budgets and cycles sub-area's read models (projections/planning/cycles). */
export async function createCyclesTables(_db: Kysely<any>, _schema: string): Promise<void> {}
