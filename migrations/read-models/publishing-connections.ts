import type { Kysely } from 'kysely'

/** The site connections sub-area's read models (projections/publishing/connections). */
export async function createSiteConnectionsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
