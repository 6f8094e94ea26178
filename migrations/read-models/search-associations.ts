import type { Kysely } from 'kysely'

/** The associations read models (projections/search/associations). */
export async function createAssociationsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
