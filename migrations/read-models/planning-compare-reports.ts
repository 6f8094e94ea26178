import type { Kysely } from 'kysely'

/** The compare reports sub-area's read models (projections/planning/compare-reports). */
export async function createCompareReportsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
