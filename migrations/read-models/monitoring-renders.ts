import type { Kysely } from 'kysely'

/** The renders sub-area's read models (projections/monitoring/renders). */
export async function createRendersTables(_db: Kysely<any>, _schema: string): Promise<void> {}
