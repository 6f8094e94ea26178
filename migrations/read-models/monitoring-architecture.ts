import type { Kysely } from 'kysely'

/** The architecture sub-area's read models (projections/monitoring/architecture). */
export async function createArchitectureTables(_db: Kysely<any>, _schema: string): Promise<void> {}
