import type { Kysely } from 'kysely'

/** The reference-docs sub-area's read models (projections/content/reference-docs). */
export async function createReferenceDocsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
