import type { Kysely } from 'kysely'

/** The redirects sub-area's read models (projections/publishing/redirects). */
export async function createRedirectsTables(_db: Kysely<any>, _schema: string): Promise<void> {}
