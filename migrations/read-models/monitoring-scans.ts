import type { Kysely } from 'kysely'

/** The scans sub-area's read models (projections/monitoring/scans). */
export async function createScansTables(_db: Kysely<any>, _schema: string): Promise<void> {}
