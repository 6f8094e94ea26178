import type { Kysely } from 'kysely'

/** The client groups sub-area's read models (projections/planning/groups). */
export async function createClientGroupsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
