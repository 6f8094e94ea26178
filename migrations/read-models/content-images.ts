import type { Kysely } from 'kysely'

/** The images sub-area's read models (projections/content/images). */
export async function createImagesTables(_db: Kysely<any>, _schema: string): Promise<void> {}
