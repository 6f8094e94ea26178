import type { Kysely } from 'kysely'

/** The entity-changes sub-area's read models (projections/monitoring/entity-changes). */
export async function createEntityChangesTables(_db: Kysely<any>, _schema: string): Promise<void> {}
